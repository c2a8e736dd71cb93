import AgentCore
import BeaconCore
import Testing
import Vocabulary

@Suite struct DeliveryPolicyTests {
    @Test func anEnterNeverQueuesBehindARangingBurst() {
        var policy = DeliveryPolicy(outboxLimit: 10_000)
        var broker = FakeBroker()
        policy.enqueue((0..<300).map(Messages.proximity) + [Messages.event(1)])
        #expect(policy.publishQueued(generation: 1, to: &broker).isEmpty)
        // The event first, then only the unwritten QoS 0 window of the burst.
        #expect(broker.topics == ["b/1/event"] + (0..<16).map { "b/\($0)/proximity" })
        // Each write reported frees one place in the window, in order.
        policy.published(mid: broker.published[1].mid)
        policy.published(mid: broker.published[2].mid)
        _ = policy.publishQueued(generation: 1, to: &broker)
        #expect(broker.topics.suffix(2) == ["b/16/proximity", "b/17/proximity"])
    }

    @Test func atMostTheInFlightWindowIsUnacknowledged() {
        var policy = DeliveryPolicy(outboxLimit: 1000, inFlightWindow: 4)
        var broker = FakeBroker()
        policy.enqueue((1...10).map(Messages.event))
        _ = policy.publishQueued(generation: 1, to: &broker)
        #expect(broker.topics == (1...4).map { "b/\($0)/event" })
        policy.published(mid: 2)
        _ = policy.publishQueued(generation: 1, to: &broker)
        #expect(broker.topics == (1...5).map { "b/\($0)/event" })
        #expect(policy.counters.published == 1)
        #expect(policy.queuedCount == 9)
    }

    @Test func anAcknowledgementGoesToTheLaneOfItsMid() {
        var policy = DeliveryPolicy(outboxLimit: 1000, inFlightWindow: 2)
        var broker = FakeBroker()
        policy.enqueue([Messages.event(1), Messages.event(2), Messages.event(3)] + (0..<20).map(Messages.proximity))
        _ = policy.publishQueued(generation: 1, to: &broker)
        #expect(broker.published.count == 2 + 16)
        // A mid the agent never handed out (the client's own `online`) frees nothing.
        policy.published(mid: 500)
        _ = policy.publishQueued(generation: 1, to: &broker)
        #expect(broker.published.count == 18)
        // A QoS 0 write frees the QoS 0 window only …
        policy.published(mid: broker.mids { $0.hasSuffix("proximity") }[0])
        _ = policy.publishQueued(generation: 1, to: &broker)
        #expect(broker.topics.last == "b/16/proximity")
        #expect(!broker.topics.contains("b/3/event"))
        // … a PUBACK the in-flight window only.
        policy.published(mid: broker.mids { $0 == "b/1/event" }[0])
        _ = policy.publishQueued(generation: 1, to: &broker)
        #expect(broker.topics.last == "b/3/event")
        #expect(broker.topics.filter { $0.hasSuffix("proximity") }.count == 17)
        // QoS 0 counts as published when handed over; QoS 1 when acknowledged.
        #expect(policy.counters.published == 17 + 1)
    }

    @Test func aLostConnectionRequeuesTheUnacknowledgedInOrder() {
        var policy = DeliveryPolicy(outboxLimit: 1000)
        var broker = FakeBroker()
        policy.enqueue((1...3).map(Messages.event))
        _ = policy.publishQueued(generation: 1, to: &broker)
        policy.published(mid: 2)
        policy.connectionLost()
        // A late acknowledgement of the old connection changes nothing.
        policy.published(mid: 1)
        policy.enqueue([Messages.event(4)])
        _ = policy.publishQueued(generation: 2, to: &broker)
        #expect(broker.published.filter { $0.generation == 2 }.map(\.topic) == ["b/1/event", "b/3/event", "b/4/event"])
        #expect(policy.counters.requeued == 2)
        #expect(policy.counters.published == 1)
    }

    @Test func notConnectedKeepsTheMessageInPlace() {
        var policy = DeliveryPolicy(outboxLimit: 1000)
        var broker = FakeBroker(connected: false)
        policy.enqueue((1...3).map(Messages.event))
        _ = policy.publishQueued(generation: 1, to: &broker)
        #expect(broker.published.isEmpty)
        #expect(policy.queuedCount == 3)
        broker.connected = true
        _ = policy.publishQueued(generation: 1, to: &broker)
        #expect(broker.topics == (1...3).map { "b/\($0)/event" })
    }

    @Test func aRefusedMessageIsCountedLoggedOnceAndSkipped() {
        var policy = DeliveryPolicy(outboxLimit: 1000)
        var broker = FakeBroker(refused: ["b/1/event", "b/2/event"])
        policy.enqueue((1...3).map(Messages.event))
        let logs = policy.publishQueued(generation: 1, to: &broker)
        #expect(
            logs.map(\.description) == ["error: broker client rejected a message topic=b/1/event reason=invalid topic"])
        #expect(policy.rejected == 2)
        #expect(broker.topics == ["b/3/event"])
    }

    @Test func holdingBackKeepsABurstInOrderInsteadOfDroppingIt() {
        var policy = DeliveryPolicy(outboxLimit: 100, inFlightWindow: 10)
        var broker = FakeBroker()
        policy.holdsBack = true
        policy.enqueue((1...200).map(Messages.event))
        #expect(policy.queuedCount == 75)  // the must-deliver lane: 100 less a quarter
        #expect(policy.heldCount == 125)
        var acknowledged = 0
        while acknowledged < broker.published.count || !policy.isIdle {
            _ = policy.publishQueued(generation: 1, to: &broker)
            while acknowledged < broker.published.count {
                policy.published(mid: broker.published[acknowledged].mid)
                acknowledged += 1
            }
        }
        #expect(broker.topics == (1...200).map { "b/\($0)/event" })
        #expect(policy.counters.dropped == 0 && policy.counters.coalesced == 0)
    }

    @Test func withoutHoldingBackTheOutboxPressureRulesApply() {
        var policy = DeliveryPolicy(outboxLimit: 100)
        policy.enqueue((1...200).map(Messages.event))
        #expect(policy.queuedCount == 75)
        #expect(policy.heldCount == 0)
        #expect(policy.counters.dropped == 125)
    }

    @Test func statsAreMustDeliverAndFreeTheQoS0WindowWhenWritten() {
        #expect(DeliveryPolicy.lane(of: Messages.stats()) == .mustDeliver)
        #expect(DeliveryPolicy.lane(of: Messages.proximity(1)) == .expendable)
        var policy = DeliveryPolicy(outboxLimit: 1000)
        var broker = FakeBroker()
        policy.enqueue(Messages.stats())
        policy.enqueue((0..<16).map(Messages.proximity))
        _ = policy.publishQueued(generation: 1, to: &broker)
        // The stats message took one place of the QoS 0 window.
        #expect(broker.published.count == 16)
        policy.published(mid: 1)
        _ = policy.publishQueued(generation: 1, to: &broker)
        #expect(broker.topics.last == "b/15/proximity")
        #expect(policy.counters.published == 17)
    }
}
