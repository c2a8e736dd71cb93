import MessageContract
import Vocabulary

/// The agent core's side of its broker session: which connection is live (its generation, so the
/// late acknowledgements of an older one are ignored), whether the first attempt has an outcome
/// (a replay waits for it), and the availability it owns on the status topic.
struct BrokerLink: Sendable {
    /// The session's availability topic and its QoS (`degraded` goes there; the session itself
    /// says `online` on connect and leaves `offline` as its will).
    let statusTopic: String
    let statusQoS: Int
    /// The live connection's generation; nil while disconnected.
    private(set) var generation: UInt64?
    private var everConnected = false
    /// The first connection attempt succeeded or failed.
    private(set) var firstAttemptDone = false

    init(statusTopic: String, statusQoS: Int) {
        self.statusTopic = statusTopic
        self.statusQoS = statusQoS
    }

    var isConnected: Bool { generation != nil }

    /// Whether an acknowledgement of connection `generation` counts (it is the live one).
    func isLive(_ generation: UInt64) -> Bool { generation == self.generation }

    /// Connection `generation` is up; true when it is a reconnect (the broker may have lost what
    /// was retained).
    mutating func connected(_ generation: UInt64) -> Bool {
        self.generation = generation
        firstAttemptDone = true
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
    func status(healthy: Bool) -> OutboundMessage {
        OutboundMessage(
            topic: statusTopic, payload: .text((healthy ? Availability.online : .degraded).rawValue), qos: statusQoS,
            retain: true, kind: .status)
    }
}
