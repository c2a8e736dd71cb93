import MessageContract
import Vocabulary

/// The agent core's side of its broker session: which connection is live (its generation, so the
/// late acknowledgements of an older one are ignored), whether the first attempt has an outcome
/// (a replay waits for it), how often it came back, and the availability it owns on the status
/// topic. The gateway's core and the locator's keep one each.
struct BrokerLink: Sendable {
    /// The session's availability topic and its QoS, where the core says `degraded` (the session
    /// itself says `online` on connect and leaves `offline` as its will); nil: the core says nothing.
    let status: (topic: String, qos: Int)?
    /// The live connection's generation; nil while disconnected.
    private(set) var generation: UInt64?
    private var everConnected = false
    /// The first connection attempt succeeded or failed.
    private(set) var firstAttemptDone = false
    /// Successful connects after the first.
    private(set) var reconnects = 0

    init(status: (topic: String, qos: Int)? = nil) { self.status = status }

    var isConnected: Bool { generation != nil }

    /// Whether an acknowledgement of connection `generation` counts (it is the live one).
    func isLive(_ generation: UInt64) -> Bool { generation == self.generation }

    /// Connection `generation` is up; true when it is a reconnect (the broker may have lost what
    /// was retained).
    mutating func connected(_ generation: UInt64) -> Bool {
        self.generation = generation
        firstAttemptDone = true
        if everConnected { reconnects += 1 }
        defer { everConnected = true }
        return everConnected
    }

    mutating func attemptFailed() { firstAttemptDone = true }

    /// Connection `generation` went; false for an older connection's late report.
    mutating func disconnected(_ generation: UInt64) -> Bool {
        guard isLive(generation) else { return false }
        self.generation = nil
        return true
    }

    /// Retained `online` or `degraded` on the status topic, as the source's health says.
    func status(healthy: Bool) -> OutboundMessage? {
        status.map {
            OutboundMessage(
                topic: $0.topic, payload: .text((healthy ? Availability.online : .degraded).rawValue), qos: $0.qos,
                retain: true, kind: .status)
        }
    }
}
