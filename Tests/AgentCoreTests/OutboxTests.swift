import AgentCore
import BeaconCore
import MessageContract
import Testing

@Suite struct OutboxTests {
    func message(_ topic: String, _ payload: String, kind: OutboundMessage.Kind) -> OutboundMessage {
        let retained = kind == .state || kind == .status || kind == .stats
        let qos = (kind == .proximity || kind == .ranging) ? 0 : 1
        return OutboundMessage(topic: topic, payload: .text(payload), qos: qos, retain: retained, kind: kind)
    }

    /// Sends everything queued, acknowledging QoS 1 at once; returns the payloads in send order.
    func drain(_ outbox: inout Outbox) -> [String] {
        var out: [String] = []
        var mid: Int32 = 1
        while let pending = outbox.next() {
            out.append(pending.message.payload.text)
            outbox.sent(pending, mid: mid)
            outbox.acknowledged(mid: mid)
            mid += 1
        }
        return out
    }

    @Test func drainsInEnqueueOrderAndCountsPublished() {
        var outbox = Outbox(limit: 10)
        for i in 0..<5 { outbox.enqueue(message("t/\(i)", "m\(i)", kind: i % 2 == 0 ? .event : .proximity)) }
        #expect(drain(&outbox) == ["m0", "m1", "m2", "m3", "m4"])
        #expect(outbox.counters.published == 5)
        #expect(outbox.isEmpty)
    }

    @Test func nothingIsDroppedWhileThereIsRoom() {
        var outbox = Outbox(limit: 100)
        for i in 0..<100 { outbox.enqueue(message("b/1/proximity", "p\(i)", kind: .proximity)) }
        #expect(outbox.count == 100)
        #expect(outbox.counters.dropped == 0 && outbox.counters.coalesced == 0)
    }

    @Test func proximityIsCoalescedToTheNewestPerTopicFirst() {
        var outbox = Outbox(limit: 4)
        outbox.enqueue(message("b/1/proximity", "a1", kind: .proximity))
        outbox.enqueue(message("b/2/proximity", "b1", kind: .proximity))
        outbox.enqueue(message("b/1/proximity", "a2", kind: .proximity))
        outbox.enqueue(message("b/1/event", "enter", kind: .event))
        // Full: the superseded a1 goes, not the older-but-unique b1.
        outbox.enqueue(message("b/1/event", "exit", kind: .event))
        #expect(outbox.counters.coalesced == 1)
        #expect(outbox.counters.dropped == 0)
        #expect(drain(&outbox) == ["b1", "a2", "enter", "exit"])
    }

    @Test func thenTheOldestProximityIsDroppedBeforeAnyEvent() {
        var outbox = Outbox(limit: 3)
        outbox.enqueue(message("b/1/event", "enter", kind: .event))
        outbox.enqueue(message("b/1/proximity", "p1", kind: .proximity))
        outbox.enqueue(message("b/2/ranging", "r1", kind: .ranging))
        outbox.enqueue(message("b/2/event", "enter2", kind: .event))
        outbox.enqueue(message("b/3/event", "enter3", kind: .event))
        #expect(outbox.counters.dropped == 2)
        #expect(drain(&outbox) == ["enter", "enter2", "enter3"])
    }

    @Test func anIncomingProximityIsRefusedWhenOnlyEventsAreQueued() {
        var outbox = Outbox(limit: 2)
        outbox.enqueue(message("b/1/event", "enter", kind: .event))
        outbox.enqueue(message("b/2/event", "enter", kind: .event))
        outbox.enqueue(message("b/1/proximity", "p", kind: .proximity))
        #expect(outbox.counters.dropped == 1)
        #expect(drain(&outbox) == ["enter", "enter"])
    }

    @Test func supersededRetainedStatesAreCoalescedBeforeEventsAreDropped() {
        var outbox = Outbox(limit: 3)
        outbox.enqueue(message("b/1/state", "inside", kind: .state))
        outbox.enqueue(message("b/1/event", "exit", kind: .event))
        outbox.enqueue(message("b/1/state", "outside", kind: .state))
        outbox.enqueue(message("b/2/event", "enter", kind: .event))
        #expect(outbox.counters.coalesced == 1)
        #expect(outbox.counters.dropped == 0)
        #expect(drain(&outbox) == ["exit", "outside", "enter"])
    }

    @Test func withOnlyEventsTheOldestIsDroppedAndCounted() {
        var outbox = Outbox(limit: 2)
        for i in 0..<4 { outbox.enqueue(message("b/\(i)/event", "e\(i)", kind: .event)) }
        #expect(outbox.counters.dropped == 2)
        #expect(drain(&outbox) == ["e2", "e3"])
    }

    @Test func inFlightMessagesCountAgainstTheLimitUntilAcknowledged() throws {
        var outbox = Outbox(limit: 2)
        outbox.enqueue(message("b/1/event", "e1", kind: .event))
        let next = outbox.next()
        let pending = try #require(next)
        outbox.sent(pending, mid: 7)
        #expect(outbox.inFlightCount == 1 && outbox.queuedCount == 0)
        outbox.enqueue(message("b/2/event", "e2", kind: .event))
        outbox.enqueue(message("b/3/event", "e3", kind: .event))
        #expect(outbox.counters.dropped == 1)
        outbox.acknowledged(mid: 7)
        #expect(outbox.counters.published == 1)
        #expect(outbox.count == 1)
    }

    @Test func aLostConnectionRequeuesUnacknowledgedMessagesInOrder() throws {
        var outbox = Outbox(limit: 10)
        for i in 0..<4 { outbox.enqueue(message("b/\(i)/event", "e\(i)", kind: .event)) }
        outbox.enqueue(message("b/9/proximity", "p", kind: .proximity))
        var mid: Int32 = 1
        for _ in 0..<3 {
            let next = outbox.next()
            let pending = try #require(next)
            outbox.sent(pending, mid: mid)
            mid += 1
        }
        outbox.acknowledged(mid: 2)  // e1 made it; e0 and e2 did not.
        outbox.connectionLost()
        #expect(outbox.counters.requeued == 2)
        // Packet ids restart on the next connection: an ack for an id not in flight is ignored.
        outbox.acknowledged(mid: 1)
        #expect(outbox.counters.published == 1)
        #expect(drain(&outbox) == ["e0", "e2", "e3", "p"])
    }

    @Test func qosZeroIsDoneWhenWritten() throws {
        var outbox = Outbox(limit: 10)
        outbox.enqueue(message("b/1/proximity", "p", kind: .proximity))
        let next = outbox.next()
        let pending = try #require(next)
        outbox.sent(pending, mid: 1)
        outbox.connectionLost()
        #expect(outbox.isEmpty)
        #expect(outbox.counters.published == 1)
    }

    @Test func anUnsentMessageKeepsItsPlaceAtTheFront() throws {
        var outbox = Outbox(limit: 10)
        for i in 0..<3 { outbox.enqueue(message("b/\(i)/event", "e\(i)", kind: .event)) }
        let next = outbox.next()
        let first = try #require(next)
        outbox.unsent(first)
        #expect(drain(&outbox) == ["e0", "e1", "e2"])
    }

    @Test func aLongOutageStaysWithinTheLimitAndKeepsTheNewestEvents() {
        var outbox = Outbox(limit: 50)
        var maxCount = 0
        for i in 0..<20_000 {
            let kind: OutboundMessage.Kind = i % 10 == 0 ? .event : .proximity
            outbox.enqueue(message("b/\(i % 7)/\(kind.rawValue)", "m\(i)", kind: kind))
            maxCount = max(maxCount, outbox.count)
        }
        #expect(maxCount == 50)
        let sent = drain(&outbox)
        // Events win over proximity, and with only events left the oldest go: the newest 50 events remain.
        #expect(sent == stride(from: 19_500, through: 19_990, by: 10).map { "m\($0)" })
        // Every message is accounted for: published, coalesced or dropped.
        let c = outbox.counters
        #expect(c.published + c.coalesced + c.dropped == 20_000)
    }
}
