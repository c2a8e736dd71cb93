import BeaconWire
import Foundation
import MessageContract
import Synchronization
import Vocabulary

/// What one broker of the campus tree shows the section: the gateways' enter/exit events (each
/// keyed by topic, kind and timestamp, so the centre's set can be checked against the floors'),
/// at the centre the latency of each event and of each locator decision from the time in its
/// payload to its arrival, and the broker's own `$SYS` message counters.
final class CampusTally: Sendable {
    struct State: Sendable {
        var events = Set<String>()
        /// Report time → arrival at this broker's subscriber, ms, for gateway enter/exit events.
        var eventLatencies: [Double] = []
        /// Locator tick → arrival, ms (the locator publishes a tick's decisions `settle` after it).
        var locationLatencies: [Double] = []
        /// Report time → arrival of the sampled gateways' proximity (QoS 0), ms.
        var proximityLatencies: [Double] = []
        var locations = 0
        /// Gateways whose retained `online` status arrived.
        var online = Set<String>()
        /// `$SYS/broker/publish/messages/received`, `…/sent` and `…/dropped` (inflight or queue
        /// limits): the latest values.
        var received = 0
        var sent = 0
        var dropped = 0
    }

    let state = Mutex(State())

    static let eventTopic = "beacons/+/+/+/+/event"
    static let locationTopic = "beacons/+/+/+/event"

    func handle(topic: String, payload: [UInt8]) {
        let now = Date().timeIntervalSince1970
        if topic.hasPrefix("$SYS/") {
            let value = Int(String(decoding: payload, as: UTF8.self)) ?? 0
            state.withLock { s in
                if topic.hasSuffix("/received") {
                    s.received = value
                } else if topic.hasSuffix("/sent") {
                    s.sent = value
                } else if topic.hasSuffix("/dropped") {
                    s.dropped = value
                }
            }
            return
        }
        let text = String(decoding: payload, as: UTF8.self)
        if topic.hasPrefix("beacons/gateways/") {
            if text == Availability.online.rawValue { state.withLock { _ = $0.online.insert(topic) } }
            return
        }
        let latency = Self.field("timestamp", in: text).flatMap(RetainedAttributes.timestamp(rfc3339:)).map {
            (now - Double($0.microseconds) / 1e6) * 1000
        }
        let levels = topic.split(separator: "/").count
        if topic.hasSuffix("/proximity") {
            if let latency { state.withLock { $0.proximityLatencies.append(latency) } }
            return
        }
        let kind = Self.field("event", in: text) ?? "?"
        state.withLock { s in
            if levels == 6 {
                guard kind == "enter" || kind == "exit" else { return }
                s.events.insert("\(topic) \(kind) \(Self.field("timestamp", in: text) ?? "")")
                if let latency { s.eventLatencies.append(latency) }
            } else if kind == "location" {
                s.locations += 1
                if let latency { s.locationLatencies.append(latency) }
            }
        }
    }

    /// The text of `"key":"…"` in a JSON payload.
    static func field(_ key: String, in json: String) -> String? {
        guard let r = json.firstRange(of: "\"\(key)\":\"") else { return nil }
        return String(json[r.upperBound...].prefix { $0 != "\"" })
    }

    /// A subscriber feeding a new tally: gateway events, `$SYS` counters and, at the centre,
    /// decisions, statuses and the proximity of the `sampled` gateways (a few: not the whole flow).
    static func subscribe(
        port: Int, central: Bool, sampled: [String] = [], id: String
    ) throws(BenchFailure)
        -> (CampusTally, BenchSubscriber)
    {
        let tally = CampusTally()
        var topics: [(String, Int32)] = [(eventTopic, 1), ("$SYS/broker/publish/messages/+", 0)]
        if central { topics += [(locationTopic, 1), ("beacons/gateways/+/status", 1)] }
        topics += sampled.map { ("beacons/+/+/+/\($0)/proximity", 0) }
        let subscriber = try BenchSubscriber(port: port, topics: topics, id: id) { topic, payload, _ in
            tally.handle(topic: topic, payload: payload)
        }
        return (tally, subscriber)
    }

    /// The `q` quantile (0…1) of `values`, nil when empty.
    static func quantile(_ values: [Double], _ q: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
    }
}
