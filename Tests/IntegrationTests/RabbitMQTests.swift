import Foundation
import Testing

@testable import IntegrationSupport

/// `make test-brokers` (B2M_BROKERS=1): the agent and the locator, unchanged, against RabbitMQ's MQTT
/// plugin (Debian's rabbitmq-server 3.10, a private node started here on loopback; see
/// `RabbitBroker`): QoS 1 across broker restarts, a persistent session, retained state, the Last Will
/// (docs/reliability.md, "Other brokers").
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["B2M_BROKERS"] != nil && RabbitBroker.isInstalled,
        "RabbitMQ: make test-brokers"))
struct RabbitMQTests {
    static let uuid = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
    static func status(_ gateway: String) -> String { "beacons/gateways/\(gateway)/status" }

    /// SIGKILL twice during a replay (the agent holds the replay while the broker is away): every event
    /// reaches a connected persistent-session witness in order, and one that was away the whole time
    /// gets them all when it returns (RabbitMQ queues them in a durable queue, across the restarts).
    @Test func qos1AcrossBrokerRestartsAndAPersistentSession() throws {
        let broker = try RabbitBroker()
        var away: TestSubscriber? = try TestSubscriber(port: broker.port, pattern: "beacons/#", clientID: "rmq-away")
        away?.stop()
        away = nil
        let witness = try TestSubscriber(port: broker.port, pattern: "beacons/#", clientID: "rmq-witness")
        defer { witness.stop() }
        let workspace = try Workspace(port: broker.port, gateway: "rmq", extra: ChaosTests.monitoring)
        let expected = try ChaosTests.expectedEvents(config: workspace.config)
        let agent = try workspace.start(["--replay", ChaosTests.capture, "--speed", "10"])
        defer { agent.signal(SIGKILL) }
        var moments = ChaosTests.Moments(state: ChaosTests.seed)
        var kills = 0
        for _ in 0..<2 where agent.isRunning {
            Thread.sleep(forTimeInterval: moments.seconds(2, 5))
            broker.kill()
            kills += 1
            Thread.sleep(forTimeInterval: moments.seconds(0.2, 1))
            try broker.start()
        }
        #expect(agent.wait(timeout: 180) == 0, "\(workspace.logText.suffix(2000))")
        _ = witness.waitFor(timeout: 20) { _ in Set(ChaosTests.events(witness)).count >= Set(expected).count }
        let tally = ChaosTests.Tally(expected: expected, received: ChaosTests.events(witness))
        let back = try TestSubscriber(port: broker.port, pattern: "beacons/#", clientID: "rmq-away")
        defer { back.stop() }
        _ = back.waitFor(timeout: 20) { _ in Set(ChaosTests.events(back)).count >= Set(expected).count }
        let queued = ChaosTests.Tally(expected: expected, received: ChaosTests.events(back))
        ChaosTests.report(
            "brokers rabbitmq: \(kills) SIGKILL restarts during a replay: connected witness \(tally); "
                + "persistent session away during it, on return: \(queued)")
        #expect(kills == 2)
        #expect(tally.lost == 0 && tally.reordered == 0, "\(tally)")
        #expect(queued.lost == 0 && queued.reordered == 0, "\(queued)")
    }

    /// A region, and beacon 1 listed under `beacons:`: their topics are known, so the restore reads them.
    static let configured = """
        regions:
          - name: office
            uuid: \(uuid)
        beacons:
          - {uuid: \(uuid), major: 1, minor: 1, name: desk}
        """

    /// Retained messages reach a later subscriber of the exact topic — RabbitMQ 3.x sends none for a
    /// filter with a wildcard (asserted, so docs/reliability.md stays true) — and SIGKILL makes the
    /// broker publish the Last Will. A restarted agent restores through the exact attributes topics of
    /// what is configured: the region and beacon 1 are not entered again; beacon 2, configured nowhere
    /// (only a wildcard names its topic), is — the difference left on RabbitMQ.
    @Test func retainedStateLastWillAndARestartThatRestoresThroughExactTopics() throws {
        let broker = try RabbitBroker()
        let workspace = try Workspace(port: broker.port, gateway: "rmq", extra: Self.configured)
        let arguments = ["--simulate", "--beacons", "2", "--seed", "7"]
        let agent = try workspace.start(arguments)
        defer { agent.signal(SIGKILL) }
        let watcher = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { watcher.stop() }
        let state = { (minor: Int) in "beacons/\(Self.uuid)/1/\(minor)/rmq/state" }
        let regionState = "beacons/regions/office/rmq/state"
        #expect(
            watcher.waitFor(timeout: 20) { m in
                [state(1), state(2), regionState].allSatisfy { t in
                    m.contains { $0.topic == t && $0.payload == "inside" }
                }
            }, "\(workspace.logText)")
        let exact = try TestSubscriber(port: broker.port, pattern: state(1))
        defer { exact.stop() }
        #expect(exact.waitFor { $0.contains { $0.payload == "inside" && $0.retained } })
        let status = try TestSubscriber(port: broker.port, pattern: Self.status("rmq"))
        defer { status.stop() }
        #expect(status.waitFor { $0.contains { $0.payload == "online" && $0.retained } })
        let wildcard = try TestSubscriber(port: broker.port, pattern: "beacons/+/1/1/rmq/state")
        defer { wildcard.stop() }
        Thread.sleep(forTimeInterval: 2)
        let wildcardRetained = wildcard.messages.filter(\.retained).count
        #expect(
            wildcardRetained == 0,
            "RabbitMQ now sends retained messages to wildcard filters: update docs/reliability.md")
        agent.signal(SIGKILL)
        #expect(agent.wait(timeout: 10) == 137)
        #expect(status.waitFor(timeout: 20) { $0.last?.payload == "offline" })
        let enters = { (suffix: String) in
            watcher.messages.filter { $0.topic.hasSuffix(suffix) && $0.payload.contains(#""event":"enter""#) }.count
        }
        let before = (enters("/1/1/rmq/event"), enters("/1/2/rmq/event"), enters("/regions/office/rmq/event"))
        let again = try workspace.start(arguments)
        defer { again.signal(SIGKILL) }
        let restoredLine = { workspace.logText.split(separator: "\n").last { $0.contains("restored retained states") } }
        #expect(waitUntil(timeout: 20) { restoredLine() != nil }, "\(workspace.logText)")
        // Beacon 2 is in range from the start of the simulation: its enter shows the sightings are in.
        #expect(waitUntil(timeout: 15) { enters("/1/2/rmq/event") > before.1 }, "\(workspace.logText)")
        Thread.sleep(forTimeInterval: 1)
        let after = (enters("/1/1/rmq/event"), enters("/1/2/rmq/event"), enters("/regions/office/rmq/event"))
        let line = restoredLine().map(String.init) ?? ""
        #expect(line.hasSuffix("read=2"), "restore read the region's and beacon 1's attributes: \(line)")
        #expect(after.0 == before.0, "beacon 1 (configured) entered again after the restart")
        #expect(after.2 == before.2, "the region entered again after the restart")
        ChaosTests.report(
            "brokers rabbitmq: retained state and status to exact-topic subscribers, \(wildcardRetained) to a wildcard one; "
                + "Last Will offline on SIGKILL; restart: \(line.split(separator: " ").last ?? "?") through exact topics, "
                + "region and configured beacon 1 entered again \(after.2 - before.2) and \(after.0 - before.0) times, "
                + "unconfigured beacon 2 \(after.1 - before.1)")
    }

    /// The locator through RabbitMQ: it locates, its status is retained, after a broker SIGKILL and
    /// restart it reconnects and its retained locations are still there, and SIGKILL on it publishes
    /// its Last Will.
    @Test func theLocatorThroughRabbitMQ() throws {
        let broker = try RabbitBroker()
        let workspace = try Workspace(
            port: broker.port, gateway: "rmq",
            extra: ChaosTests.monitoring + "beacons:\n  - {uuid: \(Self.uuid), major: 1, minor: 1, name: desk}\n")
        let agent = try workspace.start(["--simulate", "--beacons", "2", "--seed", "7"])
        defer { agent.signal(SIGKILL) }
        let locator = try ChildProcess(
            PackagePaths.binary, ["locate", "--config", workspace.config], output: workspace.log + ".locate")
        defer { locator.signal(SIGKILL) }
        let watcher = try TestSubscriber(port: broker.port, pattern: "beacons/#", clientID: "rmq-locator-watch")
        defer { watcher.stop() }
        let locations = { watcher.messages.filter { $0.topic.hasSuffix("/location") }.count }
        #expect(watcher.waitFor(timeout: 30) { _ in locations() > 0 }, "\(workspace.logText)")
        let status = "beacons/locators/rmq/status"
        let late = try TestSubscriber(port: broker.port, pattern: status)
        defer { late.stop() }
        #expect(late.waitFor { $0.contains { $0.payload == "online" && $0.retained } })
        broker.kill()
        Thread.sleep(forTimeInterval: 0.5)
        try broker.start()
        let locateLog = { (try? String(contentsOfFile: workspace.log + ".locate", encoding: .utf8)) ?? "" }
        let rabbitLines = {
            broker.logText.split(separator: "\n").filter { $0.contains("rmq-locator") }.joined(separator: "\n")
        }
        #expect(
            waitUntil(timeout: 60) { locateLog().contains("reconnected to broker") }, "\(locateLog())\n\(rabbitLines())"
        )
        // Locations are retained and published on change; RabbitMQ's retained store (dets, saved every
        // few minutes) loses them in a SIGKILL, so the locator publishes them again at the reconnect:
        // a subscriber of a located beacon's exact topic gets its location.
        let topic = try #require(watcher.messages.first { $0.topic.hasSuffix("/location") }?.topic)
        let location = try TestSubscriber(port: broker.port, pattern: topic)
        defer { location.stop() }
        #expect(
            location.waitFor(timeout: 15) { $0.contains { $0.retained && $0.payload.contains(#""room""#) } },
            "\(location.messages)")
        #expect(late.waitFor(timeout: 15) { $0.last?.payload == "online" })
        locator.signal(SIGKILL)
        #expect(locator.wait(timeout: 10) == 137)
        #expect(
            late.waitFor(timeout: 20) { $0.last?.payload == "offline" },
            "\(late.messages) \(locateLog())")
        // A restarted locator reads the configured beacon's retained location through its exact topic
        // and keeps it: no new location event for beacon 1 (before, it decided it afresh and announced it).
        // The watcher's persistent session may have a QoS 1 message again after the broker's SIGKILL
        // (at least once): an event counts once, by its payload, which carries its timestamp.
        let desk = "beacons/\(Self.uuid)/1/1/event"
        let deskEvents = { Set(watcher.messages.filter { $0.topic == desk }.map(\.payload)).count }
        #expect(watcher.waitFor(timeout: 10) { _ in deskEvents() > 0 }, "\(locateLog())")
        let before = deskEvents()
        let again = try ChildProcess(
            PackagePaths.binary, ["locate", "--config", workspace.config], output: workspace.log + ".locate2")
        defer { again.signal(SIGKILL) }
        let againLog = { (try? String(contentsOfFile: workspace.log + ".locate2", encoding: .utf8)) ?? "" }
        #expect(waitUntil(timeout: 30) { againLog().contains("locator subscribed") }, "\(againLog())")
        #expect(late.waitFor(timeout: 20) { $0.last?.payload == "online" })
        Thread.sleep(forTimeInterval: 6)
        let repeated = deskEvents() - before
        #expect(
            repeated == 0,
            "the restarted locator announced beacon 1 again: \(watcher.messages.filter { $0.topic == desk })")
        ChaosTests.report(
            "brokers rabbitmq: locate locates, retained online; after a broker SIGKILL restart it reconnects and a beacon's "
                + "retained location is there; Last Will offline; a restarted locator sent \(repeated) new events for the configured beacon"
        )
    }
}
