import BeaconWire
import Vocabulary

/// Every gateway's clock as the locator sees it (`GatewayClock`), and what it says of them: a
/// retained `<base>/gateways/<gw>/clock` when a gateway is first heard, when its state changes and
/// when its offset moved by more than `tolerance` since the last one (docs/locator.md, "Gateway clocks").
package struct GatewayClocks: Sendable {
    /// Gateways followed at most (their ids come from topics, which anyone may publish); later
    /// ones are admitted as they are, uncorrected and unreported.
    package static let capacity = 4096

    package var tolerance: TimeSpan
    private var clocks: [String: GatewayClock] = [:]
    /// What the last report said of each gateway.
    private var reported: [String: (state: GatewayClock.State, offset: TimeSpan)] = [:]
    /// Gateways to report, in the order they became due, with the locator's clock at that moment.
    private var due: [(gateway: String, at: Timestamp)] = []

    package init(tolerance: TimeSpan) { self.tolerance = tolerance }

    /// A reading's or an event's timestamp on the locator's clock (`GatewayClock.admit`); nil: too
    /// late to count.
    package mutating func admit(_ stamp: Timestamp, gateway: String, received: Timestamp) -> Timestamp? {
        guard clocks[gateway] != nil || clocks.count < Self.capacity else { return stamp }
        let admitted = clocks[gateway, default: GatewayClock()].admit(stamp, received: received, tolerance: tolerance)
        let clock = clocks[gateway]!
        let last = reported[gateway]
        let moved =
            last.map { abs($0.offset.microseconds - clock.offset.microseconds) > tolerance.microseconds } ?? true
        if last?.state != clock.state || moved, !due.contains(where: { $0.gateway == gateway }) {
            due.append((gateway, received))
        }
        return admitted
    }

    /// The locator's clock stepped by `delta`: every gateway's receive times move with it.
    package mutating func shift(by delta: TimeSpan) {
        for gateway in clocks.keys { clocks[gateway]!.shift(by: delta) }
    }

    /// An event's timestamp on the locator's clock, as the gateway's clock is known now.
    package func correct(_ stamp: Timestamp, gateway: String) -> Timestamp { clocks[gateway]?.correct(stamp) ?? stamp }

    /// The gateways' clocks by id, sorted (metrics).
    package var all: [(gateway: String, clock: GatewayClock)] {
        clocks.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Readings refused as late, over every gateway.
    package var late: Int { clocks.values.reduce(0) { $0 + $1.late } }

    /// The reports due, as retained messages.
    package mutating func report(base: String, qos: Int, into out: inout [OutboundMessage]) {
        for (gateway, at) in due {
            guard let clock = clocks[gateway] else { continue }
            reported[gateway] = (clock.state, clock.offset)
            var w = JSONWriter()
            w.beginObject()
            w.field("state", clock.state.rawValue)
            w.field("offset", Double(clock.offset.microseconds) / 1e6, decimals: 3)
            w.field("tolerance", Double(tolerance.microseconds) / 1e6, decimals: 3)
            w.field("late_readings", clock.late)
            w.field("timestamp", at.rfc3339)
            w.endObject()
            out.append(
                OutboundMessage(
                    topic: TopicTree(base: base, gateway: gateway).gatewayClock, payload: .json(w.text), qos: qos,
                    retain: true, kind: .status))
        }
        due.removeAll(keepingCapacity: true)
    }
}
