import AgentCore
import BeaconCore
import BeaconWire
import Settings
import Testing
import Vocabulary

@Suite struct AgentCoreBackPressureTests {
    @Test func aConnectedReplayWaitsWhileHalfTheOutboxIsInUse() {
        var h = CoreHarness(timing: .capture(speed: nil)) { $0.mqtt.outboxLimit = 8 }
        h.handle(.mqtt(.connected(generation: 1)))
        h.packet(1)
        #expect(h.core.takesSourceEvents)  // 2 of 8 unacknowledged (the proximity was written)
        h.packet(2)
        #expect(!h.core.takesSourceEvents)  // 4 of 8: half
        h.acknowledgeAll()
        #expect(h.core.takesSourceEvents)
    }

    @Test func aBatchThatFillsTheOutboxHalfwayIsDeferredAndResumedInOrder() {
        var h = CoreHarness(timing: .capture(speed: nil)) { $0.mqtt.outboxLimit = 8 }
        h.handle(.mqtt(.connected(generation: 1)))
        h.handle(.source(.packets((1...4).map { FakePipeline.packet($0, at: Int64($0) * 100_000) })))
        #expect(h.core.counters.pipeline.reports == 2)
        #expect(!h.core.takesSourceEvents)
        for _ in 0..<4 {
            h.acknowledgeAll()
            h.tick()
        }
        #expect(h.core.counters.pipeline.reports == 4)
        #expect(h.broker.topics.filter { $0.hasSuffix("/event") } == (1...4).map { "b/\($0)/event" })
    }

    @Test func whileTheBrokerIsAwayAReplayRunsOnLikeALiveSource() {
        var h = CoreHarness(timing: .capture(speed: nil)) { $0.mqtt.outboxLimit = 8 }
        h.handle(.mqtt(.connectFailed(reason: "refused")))
        for n in 1...10 { h.packet(UInt8(n)) }
        #expect(h.core.takesSourceEvents)
        #expect(h.core.counters.pipeline.reports == 10)
        #expect(h.core.counters.queued <= 8)
    }
}
