import AgentCore
import BeaconCore
import BeaconWire
import Settings
import Testing
import Vocabulary

@Suite struct AgentCoreLifecycleTests {
    @Test func sigtermStopsTheSourceAndFlushesWhatIsQueuedBeforeExiting() {
        var h = CoreHarness()
        h.connectAndRestore()
        h.packet(1)
        h.actions = []
        h.handle(.signal(.stop(name: "SIGTERM")))
        #expect(
            h.actions == [.log(LogRecord(.info, "stopping", ["signal": "SIGTERM"])), .notify(.stopping), .stopSource])
        let deadline = h.now + .seconds(5)
        #expect(h.core.phase == .finishing(deadline: deadline))
        // A second signal changes nothing.
        h.handle(.signal(.stop(name: "SIGINT")))
        #expect(h.actions.count == 3)
        h.tick()
        #expect(h.core.termination == nil)  // the event and the state are still unacknowledged
        h.acknowledgeAll()
        h.tick()
        guard case .clean? = h.core.termination else { return #expect(Bool(false), "no clean end") }
        #expect(h.core.counters.outbox.published == 3)
    }

    @Test func anUnacknowledgedOutboxEndsAtTheFlushDeadline() {
        var h = CoreHarness()
        h.connectAndRestore()
        h.packet(1)
        h.handle(.signal(.stop(name: "SIGTERM")))
        h.pass(4.999)
        h.tick()
        #expect(h.core.termination == nil)
        h.pass(0.001)
        h.tick()
        #expect(h.core.termination != nil)
        #expect(h.core.counters.queued == 2)
    }

    @Test func theEndOfAReplayDrainsPendingExitsThenExitsClean() {
        var h = CoreHarness(timing: .capture(speed: nil))
        h.handle(.mqtt(.connected(generation: 1)))
        h.packet(1)
        h.actions = []
        h.handle(.sourceFinished(nil))
        #expect(h.logs == ["info: end of input; letting pending exits fire and publishing what is queued"])
        #expect(h.core.phase == .finishing(deadline: h.now + .seconds(30)))
        h.acknowledgeAll()
        h.tick()
        guard case .clean? = h.core.termination else { return #expect(Bool(false), "no clean end") }
        #expect(h.broker.topics == ["b/1/event", "b/1/state", "b/1/proximity"])
    }

    @Test func drainingStepsThePipelineOnlyWhileTheOutboxHasRoom() {
        var pipeline = FakePipeline()
        pipeline.finishSteps = 10
        var h = CoreHarness(timing: .capture(speed: nil), pipeline: pipeline) { $0.mqtt.outboxLimit = 8 }
        h.handle(.mqtt(.connected(generation: 1)))
        h.handle(.sourceFinished(nil))
        h.tick()
        // Half the outbox (4) may fill before the drain waits for acknowledgements.
        #expect(h.core.phase == .draining)
        #expect(h.broker.topics == (6...9).reversed().map { "b/exit/\($0)" })
        for _ in 0..<10 {
            h.acknowledgeAll()
            h.tick()
        }
        #expect(h.broker.topics == (0...9).reversed().map { "b/exit/\($0)" })
        guard case .clean? = h.core.termination else { return #expect(Bool(false), "no clean end") }
    }

    @Test func aFailedSourceEndsWithTheExitStatusOfItsError() {
        var h = CoreHarness(timing: .capture(speed: nil))
        h.handle(.mqtt(.connectFailed(reason: "refused")))
        h.packet(1)
        h.handle(.sourceFinished(TestFailure(exitStatus: 65)))
        #expect(h.logs.last == "error: source failed; stopping reason=capture damaged at byte 42")
        h.pass(5)
        h.tick()
        guard case .sourceFailed(let failure)? = h.core.termination else {
            return #expect(Bool(false), "no failure")
        }
        #expect(failure.exitStatus == 65)
    }

    @Test func aDegradedSourceIsPublishedOnTheStatusTopicOnce() {
        var h = CoreHarness()
        h.connectAndRestore()
        h.handle(.source(.health(.degraded(reason: "adapter hci0 is down"))))
        h.handle(.source(.health(.degraded(reason: "adapter hci0 is down"))))
        h.handle(.source(.health(.healthy)))
        #expect(h.broker.topics == [CoreHarness.statusTopic, CoreHarness.statusTopic])
        #expect(
            h.logs == [
                "info: restored retained states read=0", "warning: source degraded reason=adapter hci0 is down",
                "info: source healthy again",
            ])
        #expect(h.core.serviceStatus == "scanning; broker connected; 0 beacons; 2 queued")
    }

    @Test func aReconnectRequeuesTheUnacknowledgedAndRepublishesRetainedStates() {
        var h = CoreHarness()
        h.connectAndRestore()
        h.packet(1)
        h.packet(2)
        h.handle(.mqtt(.disconnected(generation: 1)))
        h.broker.published = []
        h.handle(.mqtt(.connected(generation: 2)))
        #expect(
            h.broker.topics == ["b/1/event", "b/1/state", "b/2/event", "b/2/state", "b/1/state", "b/2/state"])
        #expect(h.broker.published.allSatisfy { $0.generation == 2 })
        #expect(h.core.counters.reconnects == 1)
        #expect(h.core.counters.outbox.requeued == 4)
    }

    @Test func aReloadThatFailsKeepsTheConfigurationAndTellsSystemd() {
        struct Broken: Error, CustomStringConvertible { var description: String { "x.yaml:3:1: bad" } }
        var h = CoreHarness()
        h.connectAndRestore()
        h.actions = []
        h.handle(.signal(.reload))
        #expect(h.actions == [.notify(.reloading), .readConfiguration])
        h.core.reloaded(.failure(Broken()))
        h.actions += h.core.takeActions()
        #expect(h.logs == ["error: reload failed; keeping the running configuration error=x.yaml:3:1: bad"])
        #expect(h.notices.last == .ready(status: "scanning; broker connected; 0 beacons; 0 queued"))
    }
}
