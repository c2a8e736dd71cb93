import AgentCore
import BeaconCore
import BeaconWire
import CLI
import Foundation
import MessageContract
import Settings
import Synchronization
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import MQTTTransport
@testable import Platform
@testable import Simulation

/// The `run` loop in-process against a real mosquitto, with a scripted core so every message is
/// numbered and its delivery can be checked exactly.
@Suite(.serialized) struct RunAgentTests {
    /// The `n` of every scripted event a subscriber saw, in arrival order.
    static func eventNumbers(_ messages: [TestSubscriber.Received]) -> [Int] {
        messages.filter { $0.topic.hasSuffix("/event") }.compactMap { message in
            message.payload.split(separator: ":").last.flatMap { Int($0.dropLast()) }
        }
    }

    @Test func aBrokerOutageMidStreamLosesNoEventAndKeepsTheirOrder() throws {
        let broker = try MosquittoBroker(persistence: true)
        // A persistent QoS 1 session: the broker queues for it across its own restart.
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/test/+/event", clientID: "outage-sub")
        defer { subscriber.stop() }
        let count = 120
        let harness = try AgentHarness(
            configuration: AgentHarness.configuration(port: broker.port),
            source: ScriptedSource(count: count, interval: 0.025))
        #expect(subscriber.waitFor { Self.eventNumbers($0).count >= 20 })
        broker.stop()
        // The outage itself: packets keep coming for a while with nobody to take them.
        _ = waitUntil(timeout: 1.5) { false }
        try broker.start()
        let (code, counters) = try #require(harness.wait(timeout: 30))
        #expect(code == .success)
        #expect(subscriber.waitFor { Self.eventNumbers($0).count >= count })
        // QoS 1 is at-least-once: what was in flight when the broker went away may come twice, but
        // nothing is lost, the order holds, and only the unacknowledged window is repeated.
        let seen = Self.eventNumbers(subscriber.messages)
        var firstSeen: [Int] = []
        for n in seen where !firstSeen.contains(n) { firstSeen.append(n) }
        #expect(firstSeen == Array(1...count))
        #expect(seen.count - count <= AgentOptions().inFlightWindow)
        #expect(counters.reconnects == 1)
        #expect(counters.outbox.dropped == 0)
        #expect(harness.lines.all.contains { $0.contains("disconnected from broker") })
    }

    /// A paced source finds the pipeline thread idle and runs most of its turns itself: every
    /// event still goes out once, in order.
    @Test func aPacedSourceRunsItsOwnTurnsAndEveryEventGoesOutInOrder() throws {
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/test/+/event")
        defer { subscriber.stop() }
        let count = 60
        let harness = try AgentHarness(
            configuration: AgentHarness.configuration(port: broker.port),
            source: ScriptedSource(count: count, interval: 0.01, firstAfter: 0.5))
        let (code, counters) = try #require(harness.wait(timeout: 30))
        #expect(code == .success)
        #expect(subscriber.waitFor { Self.eventNumbers($0).count >= count })
        #expect(Self.eventNumbers(subscriber.messages) == Array(1...count))
        #expect(counters.outbox.dropped == 0)
        #expect(harness.sourceTurnsRun >= count / 2)
    }

    @Test func afterABrokerRestartTheRetainedStatesAreRepublished() throws {
        let broker = try MosquittoBroker()  // no persistence: a restart forgets every retained message
        let harness = try AgentHarness(
            configuration: AgentHarness.configuration(port: broker.port),
            source: ScriptedSource(count: 10, interval: 0, endsAfterLast: false))
        let before = try TestSubscriber(port: broker.port, pattern: "beacons/test/+/state")
        #expect(before.waitFor { Set($0.map(\.topic)).count == 5 && $0.contains { $0.payload == "n10" } })
        before.stop()
        try broker.restart()
        // A fresh subscriber only sees what the agent republished after reconnecting.
        let after = try TestSubscriber(port: broker.port, pattern: "beacons/test/+/state")
        defer { after.stop() }
        let expected = Set((6...10).map { "beacons/test/\($0 % 5)/state=n\($0)" })
        #expect(after.waitFor { Set($0.map { "\($0.topic)=\($0.payload)" }) == expected })
        let late = try TestSubscriber(port: broker.port, pattern: "beacons/test/+/state")
        defer { late.stop() }
        #expect(late.waitFor { $0.count == 5 && $0.allSatisfy { $0.retained } })
        harness.signal(SIGTERM)
        #expect(harness.wait(timeout: 10)?.0 == .success)
    }

    /// `run` returns only once the source has finished its stop (an HCI source disables advertising
    /// and scanning then): the process must not exit in the middle of that handshake.
    @Test func sigtermWaitsForTheSourcesStopHandshake() throws {
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { subscriber.stop() }
        let source = ScriptedSource(count: 5, interval: 0, endsAfterLast: false, stopHandshake: 0.6)
        let harness = try AgentHarness(configuration: AgentHarness.configuration(port: broker.port), source: source)
        #expect(subscriber.waitFor { Self.eventNumbers($0).count == 5 })
        harness.signal(SIGTERM)
        #expect(harness.wait(timeout: 10)?.0 == .success)
        #expect(source.finished.isSet, "run returned before the source's stop handshake ended")
    }

    @Test func sigtermPublishesWhatIsQueuedThenOfflineAndExitsZero() throws {
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { subscriber.stop() }
        let harness = try AgentHarness(
            configuration: AgentHarness.configuration(port: broker.port),
            source: ScriptedSource(count: 5, interval: 0, endsAfterLast: false))
        #expect(subscriber.waitFor { Self.eventNumbers($0).count == 5 })
        harness.signal(SIGTERM)
        let (code, counters) = try #require(harness.wait(timeout: 10))
        #expect(code == .success)
        #expect(counters.queued == 0)
        #expect(
            subscriber.waitFor {
                $0.last == .init(topic: "beacons/gateways/gw1/status", payload: "offline", qos: 1, retained: false)
            })
        #expect(harness.lines.all.contains { $0.hasPrefix("info: stopping signal=SIGTERM") })
    }

    @Test func sighupAppliesAGoodConfigurationAndKeepsTheOldOneOnABadOne() throws {
        let broker = try MosquittoBroker()
        let configuration = AgentHarness.configuration(port: broker.port)
        let attempt = AtomicFlag()
        let harness = try AgentHarness(
            configuration: configuration, source: ScriptedSource(count: 1, interval: 0, endsAfterLast: false),
            reload: {
                if attempt.isSet { throw AgentHarness.ReloadRefused() }
                attempt.set()
                var next = configuration
                next.regions = [BeaconRegion(name: "office", uuid: SimulatedSource.uuid)]
                return next
            })
        harness.signal(SIGHUP)
        #expect(waitUntil(timeout: 5) { harness.recorder.regions.withLock { $0 } == ["office"] })
        harness.signal(SIGHUP)
        #expect(waitUntil(timeout: 5) { harness.lines.all.contains { $0.contains("reload failed") } })
        #expect(harness.recorder.regions.withLock { $0 } == ["office"])
        harness.signal(SIGTERM)
        #expect(harness.wait(timeout: 10)?.0 == .success)
    }

    @Test func startReadsBackOnlyThisGatewaysRetainedStatesAndAttributes() throws {
        let broker = try MosquittoBroker()
        let (seed, _) = ClientEvents.client(port: broker.port)
        seed.start()
        #expect(seed.waitForFirstAttempt(timeout: .seconds(5)))
        let retained = [
            "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/attributes": #"{"state":"inside"}"#,
            "beacons/regions/office/gw1/attributes": #"{"state":"inside"}"#,
            "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw2/attributes": #"{"state":"inside"}"#,
            "beacons/regions/office/gw1/state": "inside",
        ]
        for (topic, payload) in retained {
            _ = seed.publish(topic: topic, payload: Array(payload.utf8), qos: 1, retain: true)
        }
        // One subscriber seeing all four means the broker holds them.
        let check = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        #expect(check.waitFor { Set($0.map(\.topic)).isSuperset(of: retained.keys) })
        check.stop()
        seed.stop()
        let harness = try AgentHarness(
            configuration: AgentHarness.configuration(port: broker.port),
            source: ScriptedSource(count: 1, interval: 0, endsAfterLast: false))
        #expect(waitUntil(timeout: 10) { !harness.recorder.restored.withLock { $0 }.isEmpty })
        let topics = harness.recorder.restored.withLock { $0 }.map(\.topic)
        #expect(
            topics == [
                "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/attributes",
                "beacons/regions/office/gw1/attributes",
                "beacons/regions/office/gw1/state",
            ])
        harness.signal(SIGTERM)
        #expect(harness.wait(timeout: 10)?.0 == .success)
    }

    @Test func withTheBrokerUnreachableTheOutboxStaysWithinItsLimit() throws {
        var configuration = AgentHarness.configuration(port: try MosquittoBroker.freePort())
        configuration.mqtt.outboxLimit = 100
        var options = AgentOptions(timing: .capture(speed: nil))
        options.endOfInputFlush = .milliseconds(200)
        options.restoreTimeout = .milliseconds(200)
        let harness = try AgentHarness(
            configuration: configuration, source: ScriptedSource(count: 5000, interval: 0), options: options)
        let (code, counters) = try #require(harness.wait(timeout: 30))
        #expect(code == .success)
        #expect(counters.pipeline.reports == 5000)
        #expect(counters.queued <= 100)
        let c = counters.outbox
        #expect(c.published == 0)
        // 3 messages per packet: each one is held, coalesced or dropped, and counted.
        #expect(c.coalesced + c.dropped + counters.queued == 15_000)
        #expect(harness.lines.all.filter { $0.hasPrefix("warning: cannot connect") }.count == 1)
    }

    @Test func aReplayBurstLargerThanTheOutboxIsHeldBackNotDropped() throws {
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/+/+/event")
        defer { subscriber.stop() }
        var configuration = AgentHarness.configuration(port: broker.port)
        configuration.mqtt.outboxLimit = 100
        let harness = try AgentHarness(
            configuration: configuration, source: ScriptedSource(count: 50, interval: 0),
            options: AgentOptions(timing: .capture(speed: nil)), burst: 700)
        let (code, counters) = try #require(harness.wait(timeout: 30))
        #expect(code == .success)
        #expect(counters.outbox.dropped == 0)
        #expect(counters.outbox.coalesced == 0)
        #expect(subscriber.waitFor { $0.count >= 750 })
        let topics = subscriber.messages.map(\.topic)
        #expect(Set(topics.filter { $0.contains("/burst/") }).count == 700)
        #expect(Self.eventNumbers(subscriber.messages.filter { $0.topic.hasPrefix("beacons/test/") }) == Array(1...50))
    }

    @Test func anEventGoesOutBeforeTheProximityBurstMadeBeforeIt() throws {
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { subscriber.stop() }
        // Packet 1 makes 300 proximity messages (a ranging tick), then its own event.
        let harness = try AgentHarness(
            configuration: AgentHarness.configuration(port: broker.port), source: ScriptedSource(count: 1, interval: 0),
            burst: 300, burstKind: .proximity)
        _ = try #require(harness.wait(timeout: 30))
        #expect(subscriber.waitFor { $0.filter { $0.topic.contains("/burst/") }.count >= 300 })
        let topics = subscriber.messages.map(\.topic)
        let event = try #require(topics.firstIndex(of: "beacons/test/1/event"))
        let firstProximity = try #require(topics.firstIndex { $0.contains("/burst/") })
        #expect(event < firstProximity)
    }

    @Test func aDegradedSourceShowsOnTheStatusTopicAndInStats() throws {
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/gateways/gw1/#")
        defer { subscriber.stop() }
        var configuration = AgentHarness.configuration(port: broker.port)
        configuration.mqtt.statsInterval = .seconds(1)
        let harness = try AgentHarness(
            configuration: configuration,
            source: ScriptedSource(count: 3, interval: 0, endsAfterLast: false, degradedReason: "adapter hci0 is down"))
        let status = "beacons/gateways/gw1/status"
        #expect(subscriber.waitFor { $0.filter { $0.topic == status }.map(\.payload) == ["online", "degraded"] })
        #expect(
            subscriber.waitFor {
                $0.contains {
                    $0.topic.hasSuffix("/stats") && $0.payload.contains(#""degraded":"adapter hci0 is down""#)
                }
            })
        #expect(harness.lines.all.contains { $0.hasPrefix("warning: source degraded reason=\"adapter hci0 is down\"") })
        harness.signal(SIGTERM)
        #expect(harness.wait(timeout: 10)?.0 == .success)
    }

    @Test func requireBrokerAtStartGivesUnavailable() throws {
        var configuration = AgentHarness.configuration(port: try MosquittoBroker.freePort())
        configuration.mqtt.requireBrokerAtStart = true
        let harness = try AgentHarness(configuration: configuration, source: ScriptedSource(count: 1, interval: 0))
        #expect(harness.wait(timeout: 15)?.0 == .unavailable)
        #expect(harness.lines.all.contains { $0.hasPrefix("error: broker unavailable at start") })
    }

    /// A dead `mqtt.host` with a live failover broker is no broker unavailable at start: the agent
    /// tries every broker of the list before it gives up.
    @Test func requireBrokerAtStartTriesTheFailoverBrokers() throws {
        let broker = try MosquittoBroker()
        var configuration = AgentHarness.configuration(port: try MosquittoBroker.freePort())
        configuration.mqtt.failover = [MQTTSettings.Failover(host: "127.0.0.1", port: broker.port)]
        configuration.mqtt.requireBrokerAtStart = true
        let harness = try AgentHarness(configuration: configuration, source: ScriptedSource(count: 1, interval: 0))
        #expect(waitUntil(timeout: 15) { harness.lines.all.contains { $0.contains("connected to broker") } })
        #expect(!harness.lines.all.contains { $0.hasPrefix("error: broker unavailable at start") })
        harness.signal(SIGTERM)
        #expect(harness.wait(timeout: 10)?.0 == .success)
    }
}
