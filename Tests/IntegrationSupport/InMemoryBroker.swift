import AgentCore
import Synchronization
import Vocabulary

/// A broker and this client's session to it, in memory: a `BrokerPort` for running `Agent`
/// without mosquitto. It keeps retained messages and subscriptions as a broker does (SUBACK, then
/// the retained messages the pattern matches; `+` and `#`), acknowledges every publish at once or
/// holds the acknowledgements back (`holdsAcknowledgements`), and can go down and come back (the
/// will leaves `offline`; each connection has a new generation). Events reach the consumer on the
/// thread that caused them, outside the lock, as libmosquitto's publishing threads deliver theirs.
final class InMemoryBroker: BrokerPort {
    /// A message as the broker keeps it (what a `TestSubscriber` of a real broker records).
    typealias Message = TestSubscriber.Received

    private struct State {
        var consumer: (@Sendable ([BrokerEvent]) -> Void)?
        var reachable = true
        var connected = false
        var stopped = false
        var generation: UInt64 = 0
        var nextMid: Int32 = 0
        var retained: [String: [UInt8]] = [:]
        var subscriptions: Set<String> = []
        /// What the client published, in order, with the broker's own will.
        var published: [Message] = []
        var heldAcknowledgements: [BrokerEvent] = []
        var holdsAcknowledgements = false
        var lastFailure: String?
        var connects = 0
    }

    private let state = Mutex(State())
    /// Where the session announces `online`/`offline` (retained, as the live session does).
    let statusTopic: String

    init(statusTopic: String = "beacons/gateways/gw1/status", reachable: Bool = true) {
        self.statusTopic = statusTopic
        state.withLock { $0.reachable = reachable }
    }

    // MARK: - The test's side

    /// What the client published (and the will), in order.
    var published: [Message] { state.withLock { $0.published } }
    var retained: [String: String] { state.withLock { $0.retained.mapValues { String(decoding: $0, as: UTF8.self) } } }
    var isConnected: Bool { state.withLock { $0.connected } }
    var connects: Int { state.withLock { $0.connects } }

    /// A retained message another client left, before or while the agent runs.
    func retain(_ topic: String, _ payload: String) {
        state.withLock { $0.retained[topic] = Array(payload.utf8) }
    }

    /// Acknowledge nothing until `releaseAcknowledgements` (a slow broker; in flight at an outage).
    func holdAcknowledgements() { state.withLock { $0.holdsAcknowledgements = true } }

    func releaseAcknowledgements() {
        let (events, consumer) = state.withLock { s in
            defer {
                s.heldAcknowledgements = []
                s.holdsAcknowledgements = false
            }
            return (s.heldAcknowledgements, s.consumer)
        }
        if !events.isEmpty { consumer?(events) }
    }

    /// The connection drops and the broker stays unreachable: the will leaves `offline`, and
    /// acknowledgements not yet sent are lost with the connection.
    func goDown() {
        let (events, consumer) = state.withLock { s -> ([BrokerEvent], (@Sendable ([BrokerEvent]) -> Void)?) in
            s.reachable = false
            s.heldAcknowledgements = []
            s.subscriptions = []
            guard s.connected else { return ([], s.consumer) }
            s.connected = false
            Self.store(Message(topic: statusTopic, payload: "offline", qos: 1, retained: true), in: &s)
            return ([.disconnected(generation: s.generation, reason: "connection lost")], s.consumer)
        }
        if !events.isEmpty { consumer?(events) }
    }

    /// The broker is back: the session reconnects at once (its backoff is the live port's business).
    func comeBack() {
        let (events, consumer) = state.withLock { s -> ([BrokerEvent], (@Sendable ([BrokerEvent]) -> Void)?) in
            s.reachable = true
            guard s.consumer != nil, !s.stopped else { return ([], nil) }
            return (connect(&s), s.consumer)
        }
        if !events.isEmpty { consumer?(events) }
    }

    // MARK: - BrokerPort

    var endpoint: String { "memory://broker" }
    var lastFailure: String? { state.withLock { $0.lastFailure } }

    func start(delivering deliver: @escaping @Sendable ([BrokerEvent]) -> Void) {
        let events = state.withLock { s in
            s.consumer = deliver
            return connect(&s)
        }
        deliver(events)
    }

    func waitForFirstAttempt(timeout: TimeSpan) -> Bool { isConnected }

    func stop(timeout: TimeSpan) {
        let (events, consumer) = state.withLock { s -> ([BrokerEvent], (@Sendable ([BrokerEvent]) -> Void)?) in
            s.stopped = true
            guard s.connected else { return ([], nil) }
            s.connected = false
            Self.store(Message(topic: statusTopic, payload: "offline", qos: 1, retained: true), in: &s)
            return ([.disconnected(generation: s.generation, reason: "shutdown")], s.consumer)
        }
        if !events.isEmpty { consumer?(events) }
    }

    func publish(
        topic: String, payload: UnsafeRawBufferPointer, qos: Int, retain: Bool, generation: UInt64?
    )
        -> PublishOutcome
    {
        let bytes = Array(payload)
        let (outcome, events, consumer) = state.withLock {
            s -> (PublishOutcome, [BrokerEvent], (@Sendable ([BrokerEvent]) -> Void)?) in
            guard s.connected, generation == nil || generation == s.generation else { return (.notConnected, [], nil) }
            if topic.isEmpty || topic.contains("+") || topic.contains("#") {
                return (.failed("invalid topic"), [], nil)
            }
            s.nextMid += 1
            let message = Message(
                topic: topic, payload: String(decoding: bytes, as: UTF8.self), qos: qos, retained: retain)
            var events = Self.store(message, in: &s)
            let ack = BrokerEvent.published(generation: s.generation, mid: s.nextMid)
            if s.holdsAcknowledgements { s.heldAcknowledgements.append(ack) } else { events.insert(ack, at: 0) }
            return (.sent(mid: s.nextMid), events, s.consumer)
        }
        if !events.isEmpty { consumer?(events) }
        return outcome
    }

    func subscribe(_ pattern: String, qos: Int) -> Int32? {
        let (mid, events, consumer) = state.withLock {
            s -> (Int32?, [BrokerEvent], (@Sendable ([BrokerEvent]) -> Void)?) in
            guard s.connected else { return (nil, [], nil) }
            s.nextMid += 1
            s.subscriptions.insert(pattern)
            var events: [BrokerEvent] = [.subscribed(generation: s.generation, mid: s.nextMid)]
            for (topic, payload) in s.retained.sorted(by: { $0.key < $1.key }) where Self.matches(pattern, topic) {
                events.append(.message(topic: topic, payload: payload, qos: qos, retained: true))
            }
            return (s.nextMid, events, s.consumer)
        }
        consumer?(events)
        return mid
    }

    func unsubscribe(_ pattern: String) { _ = state.withLock { $0.subscriptions.remove(pattern) } }

    // MARK: - The broker

    private func connect(_ s: inout State) -> [BrokerEvent] {
        guard s.reachable else {
            s.lastFailure = "connection refused"
            return [.connectFailed(reason: "connection refused")]
        }
        s.generation += 1
        s.connects += 1
        s.connected = true
        s.lastFailure = nil
        Self.store(Message(topic: statusTopic, payload: "online", qos: 1, retained: true), in: &s)
        return [.connected(generation: s.generation)]
    }

    /// Keeps a published message (a retained one for later subscribers; an empty retained payload
    /// clears it) and returns its delivery to this client's own matching subscriptions.
    @discardableResult
    private static func store(_ message: Message, in s: inout State) -> [BrokerEvent] {
        s.published.append(message)
        if message.retained {
            s.retained[message.topic] = message.payload.isEmpty ? nil : Array(message.payload.utf8)
        }
        guard s.connected, s.subscriptions.contains(where: { matches($0, message.topic) }) else { return [] }
        return [.message(topic: message.topic, payload: Array(message.payload.utf8), qos: message.qos, retained: false)]
    }

    /// MQTT topic filter matching (MQTT 3.1.1 §4.7): `+` one level, `#` the rest.
    static func matches(_ filter: String, _ topic: String) -> Bool {
        let f = filter.split(separator: "/", omittingEmptySubsequences: false)
        let t = topic.split(separator: "/", omittingEmptySubsequences: false)
        for (i, level) in f.enumerated() {
            if level == "#" { return true }
            guard i < t.count, level == "+" || level == t[i] else { return false }
        }
        return f.count == t.count
    }
}
