import AgentCore
import BeaconCore
import BeaconWire
import Testing

@Suite struct AgentCoreRestoreTests {
    let subscriptions = [
        "b/+/+/+/gw/attributes", "b/regions/+/gw/attributes", "b/+/+/+/gw/state", "b/regions/+/gw/state",
        "b/devices/+/gw/attributes", "b/devices/+/gw/state",
    ]

    @Test func noPacketIsTakenUntilTheRetainedStatesAreRead() {
        var h = CoreHarness()
        #expect(h.core.phase == .restoring)
        #expect(!h.core.takesSourceEvents)
        h.connectAndRestore()
        #expect(h.core.phase == .running)
        #expect(h.core.takesSourceEvents)
    }

    @Test func theReadBackEndsAQuietPeriodAfterTheLastRetainedMessage() {
        var h = CoreHarness()
        h.handle(.mqtt(.connected(generation: 1)))
        #expect(h.broker.subscribed == subscriptions)
        for mid in h.broker.subscriptionMids { h.handle(.mqtt(.subscribed(generation: 1, mid: mid))) }
        h.pass(0.2)
        let topic = "b/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw/attributes"
        h.handle(.mqtt(.message(topic: topic, payload: Array("{}".utf8), retained: true)))
        // Not retained, or empty: not a saved state.
        h.handle(.mqtt(.message(topic: "b/x/1/2/gw/attributes", payload: Array("{}".utf8), retained: false)))
        h.handle(.mqtt(.message(topic: "b/y/1/2/gw/attributes", payload: [], retained: true)))
        h.pass(0.29)
        h.tick()
        #expect(h.core.phase == .restoring)  // the quiet period restarted at the message
        h.pass(0.01)
        h.tick()
        #expect(h.core.phase == .running)
        #expect(h.broker.unsubscribed == subscriptions)
        #expect(h.core.counters.pipeline.reports == 0)
        #expect(h.logs == ["info: restored retained states read=1"])
    }

    @Test func withoutABrokerTheRestoreEndsAtItsDeadlineAndStartsFresh() {
        var h = CoreHarness()
        let start = h.now
        h.pass(2.999)
        h.tick()
        #expect(h.core.phase == .restoring)
        #expect(h.core.nextWake == start.adding(seconds: 3))
        h.pass(0.001)
        h.tick()
        #expect(h.core.phase == .running)
        #expect(h.broker.unsubscribed.isEmpty)
        #expect(h.logs == ["warning: broker not reachable at start: states not restored, starting fresh"])
    }

    @Test func subscriptionAcknowledgementsOfAnOlderConnectionDoNotCount() {
        var h = CoreHarness()
        h.handle(.mqtt(.connected(generation: 1)))
        h.handle(.mqtt(.disconnected(generation: 1)))
        h.handle(.mqtt(.connected(generation: 2)))
        let mids = h.broker.subscriptionMids
        #expect(mids.count == 12)
        for mid in mids.prefix(6) { h.handle(.mqtt(.subscribed(generation: 1, mid: mid))) }
        h.pass(1)
        h.tick()
        #expect(h.core.phase == .restoring)
        for mid in mids.suffix(6) { h.handle(.mqtt(.subscribed(generation: 2, mid: mid))) }
        h.pass(0.3)
        h.tick()
        #expect(h.core.phase == .running)
    }

    @Test func aReplaySkipsTheReadBackAndWaitsForTheFirstConnectionAttempt() {
        var h = CoreHarness(timing: .capture(speed: nil))
        #expect(h.core.phase == .running)
        #expect(!h.core.takesSourceEvents)
        h.handle(.mqtt(.connectFailed))
        #expect(h.core.takesSourceEvents)
        #expect(h.broker.subscribed.isEmpty)
    }
}
