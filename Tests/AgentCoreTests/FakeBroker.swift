import AgentCore
import BeaconCore
import MessageContract
import Vocabulary

/// A `BrokerSession` that records every call and answers as told: mids count up from 1.
struct FakeBroker: BrokerSession {
    struct Publish: Equatable {
        var topic: String
        var payload: String
        var mid: Int32
        var generation: UInt64
    }

    var published: [Publish] = []
    var subscribed: [String] = []
    /// Each subscription's QoS, in `subscribed`'s order.
    var subscribedQoS: [Int] = []
    var subscriptionMids: [Int32] = []
    var unsubscribed: [String] = []
    var nextMid: Int32 = 1
    /// Answer `notConnected` from now on.
    var connected = true
    /// Topics the session refuses for good.
    var refused: Set<String> = []

    mutating func publish(_ message: OutboundMessage, generation: UInt64) -> PublishOutcome {
        guard connected else { return .notConnected }
        if refused.contains(message.topic) { return .failed("invalid topic") }
        defer { nextMid += 1 }
        published.append(
            Publish(topic: message.topic, payload: message.payload.text, mid: nextMid, generation: generation))
        return .sent(mid: nextMid)
    }

    mutating func subscribe(_ pattern: String, qos: Int) -> Int32? {
        guard connected else { return nil }
        defer { nextMid += 1 }
        subscribed.append(pattern)
        subscribedQoS.append(qos)
        subscriptionMids.append(nextMid)
        return nextMid
    }

    mutating func unsubscribe(_ pattern: String) { unsubscribed.append(pattern) }

    var topics: [String] { published.map(\.topic) }

    /// The mids published on `topic`s matching `predicate`, in order.
    func mids(where predicate: (String) -> Bool) -> [Int32] { published.filter { predicate($0.topic) }.map(\.mid) }
}

enum Messages {
    static func event(_ n: Int) -> OutboundMessage {
        OutboundMessage(topic: "b/\(n)/event", payload: .text("\(n)"), qos: 1, retain: false, kind: .event)
    }

    static func proximity(_ n: Int) -> OutboundMessage {
        OutboundMessage(topic: "b/\(n)/proximity", payload: .text("\(n)"), qos: 0, retain: false, kind: .proximity)
    }

    static func stats() -> OutboundMessage {
        OutboundMessage(topic: "b/gateways/gw/stats", payload: .text("{}"), qos: 0, retain: true, kind: .stats)
    }
}
