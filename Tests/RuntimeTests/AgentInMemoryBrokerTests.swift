import AgentCore
import BeaconCore
import Glibc
import Settings
import Synchronization
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import Platform
@testable import Runtime

/// The `run` loop in-process on an in-memory `BrokerPort`: the shell's restore, outage and
/// shutdown paths, with no mosquitto (RunAgentTests runs the same paths against a real one).
@Suite struct AgentInMemoryBrokerTests {
    static let status = "beacons/gateways/gw1/status"

    /// The `n` of every scripted event published, in order.
    static func eventNumbers(_ messages: [InMemoryBroker.Message]) -> [Int] { RunAgentTests.eventNumbers(messages) }

    @Test func startReadsBackOnlyThisGatewaysRetainedStatesAndAttributes() throws {
        let broker = InMemoryBroker()
        broker.retain("beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/attributes", #"{"state":"inside"}"#)
        broker.retain("beacons/regions/office/gw1/attributes", #"{"state":"inside"}"#)
        broker.retain("beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw2/attributes", #"{"state":"inside"}"#)
        broker.retain("beacons/regions/office/gw1/state", "inside")
        let harness = try AgentHarness(
            configuration: AgentHarness.configuration(port: 1),
            source: ScriptedSource(count: 1, interval: 0, endsAfterLast: false), broker: broker)
        #expect(waitUntil(timeout: 10) { !harness.recorder.restored.withLock { $0 }.isEmpty })
        #expect(
            harness.recorder.restored.withLock { $0 }.map(\.topic) == [
                "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/attributes",
                "beacons/regions/office/gw1/attributes",
                "beacons/regions/office/gw1/state",
            ])
        // Nothing is published before the restore ends (the packet waited for it).
        #expect(waitUntil(timeout: 5) { Self.eventNumbers(broker.published) == [1] })
        harness.signal(SIGTERM)
        #expect(harness.wait(timeout: 10)?.0 == .success)
    }

    @Test func anOutageLosesNoEventAndSendsAgainWhatWasInFlight() throws {
        let broker = InMemoryBroker()
        broker.holdAcknowledgements()  // everything sent before the outage is still in flight
        let count = 40
        let harness = try AgentHarness(
            configuration: AgentHarness.configuration(port: 1),
            source: ScriptedSource(count: count, interval: 0.01, endsAfterLast: false), broker: broker)
        #expect(waitUntil(timeout: 10) { Self.eventNumbers(broker.published).count >= 5 })
        broker.goDown()
        let beforeOutage = Set(Self.eventNumbers(broker.published))
        #expect(broker.retained[Self.status] == "offline")
        _ = waitUntil(timeout: 0.2) { false }  // packets keep coming with nobody to take them
        let seenBeforeReturn = broker.published.count
        broker.comeBack()
        broker.releaseAcknowledgements()
        #expect(broker.retained[Self.status] == "online")
        #expect(waitUntil(timeout: 10) { Set(Self.eventNumbers(broker.published)).count == count })
        let afterReturn = Self.eventNumbers(Array(broker.published.dropFirst(seenBeforeReturn)))
        // What was unacknowledged went out again on the new connection, before anything newer.
        #expect(beforeOutage.isSubset(of: Set(afterReturn)))
        #expect(afterReturn == Array(afterReturn.min()!...count))
        harness.signal(SIGTERM)
        let (code, counters) = try #require(harness.wait(timeout: 10))
        #expect(code == .success)
        #expect(counters.reconnects == 1)
        #expect(counters.outbox.dropped == 0)
        #expect(counters.queued == 0)
    }

    @Test func sigtermPublishesWhatIsQueuedThenOfflineAndExitsZero() throws {
        let broker = InMemoryBroker()
        let source = ScriptedSource(count: 5, interval: 0, endsAfterLast: false, stopHandshake: 0.2)
        let harness = try AgentHarness(
            configuration: AgentHarness.configuration(port: 1), source: source, broker: broker)
        #expect(waitUntil(timeout: 10) { Self.eventNumbers(broker.published) == [1, 2, 3, 4, 5] })
        harness.signal(SIGTERM)
        let (code, counters) = try #require(harness.wait(timeout: 10))
        #expect(code == .success)
        #expect(counters.queued == 0)
        #expect(source.finished.isSet, "run returned before the source's stop handshake ended")
        #expect(!broker.isConnected)
        #expect(broker.published.last == .init(topic: Self.status, payload: "offline", qos: 1, retained: true))
        #expect(harness.lines.all.contains { $0.hasPrefix("info: stopping signal=SIGTERM") })
    }

    @Test func requireBrokerAtStartGivesUnavailable() throws {
        var configuration = AgentHarness.configuration(port: 1)
        configuration.mqtt.requireBrokerAtStart = true
        let broker = InMemoryBroker(reachable: false)
        let harness = try AgentHarness(
            configuration: configuration, source: ScriptedSource(count: 1, interval: 0), broker: broker)
        #expect(harness.wait(timeout: 10)?.0 == .unavailable)
        #expect(broker.published.isEmpty)
        #expect(
            harness.lines.all.contains {
                $0.hasPrefix("error: broker unavailable at start") && $0.contains("connection refused")
            })
    }
}
