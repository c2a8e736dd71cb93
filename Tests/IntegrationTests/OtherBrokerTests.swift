import Foundation
import Testing

@testable import IntegrationSupport

/// `make test-brokers` (B2M_BROKERS=1): the agent and the locator, unchanged, against amqtt, a second
/// independent MQTT implementation (docs/reliability.md, "Other brokers"): retained state, the Last
/// Will, a persistent session, and QoS 1 delivery across a broker restart.
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["B2M_BROKERS"] != nil && AmqttBroker.isInstalled,
        "amqtt: make test-brokers"))
struct OtherBrokerTests {
    static let status = "beacons/gateways/amqtt/status"

    func agent(_ broker: AmqttBroker, _ arguments: [String]) throws -> (Workspace, ChildProcess) {
        let workspace = try Workspace(port: broker.port, gateway: "amqtt", extra: ChaosTests.monitoring)
        return (workspace, try workspace.start(arguments))
    }

    @Test func retainedStateAndTheLastWill() throws {
        let broker = try AmqttBroker()
        let (workspace, agent) = try agent(broker, ["--simulate", "--beacons", "2", "--seed", "7"])
        defer { agent.signal(SIGKILL) }
        let watcher = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { watcher.stop() }
        #expect(
            watcher.waitFor { $0.contains { $0.topic.hasSuffix("/state") && $0.payload == "inside" } },
            "\(workspace.logText)")
        // A subscriber that arrives later gets the retained status and states.
        let late = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { late.stop() }
        #expect(late.waitFor { m in m.contains { $0.topic == Self.status && $0.payload == "online" && $0.retained } })
        #expect(
            late.waitFor { m in m.contains { $0.topic.hasSuffix("/state") && $0.payload == "inside" && $0.retained } })
        // SIGKILL: the broker publishes the Last Will.
        agent.signal(SIGKILL)
        #expect(agent.wait(timeout: 10) == 137)
        #expect(watcher.waitFor(timeout: 20) { $0.last { $0.topic == Self.status }?.payload == "offline" })
        ChaosTests.report(
            "brokers amqtt: retained status and states to a late subscriber, Last Will offline on SIGKILL")
    }

    /// amqtt 0.12.1 keeps a persistent session's subscription but delivers none of the QoS 1 messages
    /// published while the subscriber was away (mosquitto_sub -c shows the same): the events of that
    /// time are gone at the broker. What a returning consumer relies on then is the retained state,
    /// which the agent keeps right: every beacon's retained `state` is its last event.
    @Test func aSubscriberAwayDuringAReplayFindsTheRetainedStatesRight() throws {
        let broker = try AmqttBroker()
        var witness: TestSubscriber? = try TestSubscriber(
            port: broker.port, pattern: "beacons/#", clientID: "amqtt-away")
        witness?.stop()
        witness = nil
        let (workspace, agent) = try agent(broker, ["--replay", ChaosTests.capture, "--speed", "20"])
        #expect(agent.wait(timeout: 60) == 0, "\(workspace.logText)")
        let expected = try ChaosTests.expectedEvents(config: workspace.config)
        let back = try TestSubscriber(port: broker.port, pattern: "beacons/#", clientID: "amqtt-away")
        defer { back.stop() }
        var last: [String: String] = [:]
        for e in expected { last[String(e.topic.dropLast("/event".count))] = e.kind }
        _ = back.waitFor(timeout: 5) { m in m.filter { $0.topic.hasSuffix("/state") }.count >= last.count }
        let queued = ChaosTests.Tally(expected: expected, received: ChaosTests.events(back))
        var wrong = 0
        for (subject, kind) in last
        where back.messages(on: subject + "/state").last?.payload != (kind == "enter" ? "inside" : "outside") {
            wrong += 1
        }
        ChaosTests.report(
            "brokers amqtt persistent session, subscriber away during the replay: queued events \(queued); "
                + "retained states: \(last.count) subjects, \(wrong) wrong")
        #expect(last.count >= 5)
        #expect(wrong == 0)
    }

    @Test func qos1DeliveryAcrossABrokerRestart() throws {
        let broker = try AmqttBroker()
        let witness = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { witness.stop() }
        let (workspace, agent) = try agent(broker, ["--replay", ChaosTests.capture, "--speed", "10"])
        let expected = try ChaosTests.expectedEvents(config: workspace.config)
        var moments = ChaosTests.Moments(state: ChaosTests.seed)
        for _ in 0..<5 where agent.isRunning {
            Thread.sleep(forTimeInterval: moments.seconds(1, 3))
            broker.kill()
            Thread.sleep(forTimeInterval: moments.seconds(0.2, 0.6))
            try broker.start()
        }
        #expect(agent.wait(timeout: 120) == 0, "\(workspace.logText.suffix(2000))")
        _ = witness.waitFor(timeout: 15) { _ in Set(ChaosTests.events(witness)).count >= Set(expected).count }
        let tally = ChaosTests.Tally(expected: expected, received: ChaosTests.events(witness))
        // amqtt forgets retained messages in a restart; the agent publishes its retained states again
        // on every reconnect, so a subscriber arriving after the last restart finds them right.
        var last: [String: String] = [:]
        for e in expected { last[String(e.topic.dropLast("/event".count))] = e.kind }
        let late = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { late.stop() }
        _ = late.waitFor(timeout: 5) { m in m.filter { $0.topic.hasSuffix("/state") }.count >= last.count }
        var wrong = 0
        for (subject, kind) in last
        where late.messages(on: subject + "/state").last?.payload != (kind == "enter" ? "inside" : "outside") {
            wrong += 1
        }
        ChaosTests.report(
            "brokers amqtt: 5 SIGKILL restarts during a replay: \(tally); retained states after: \(last.count) subjects, \(wrong) wrong"
        )
        #expect(tally.reordered == 0, "\(tally)")
        #expect(wrong == 0)
    }

    @Test func theLocatorLocatesThroughAmqtt() throws {
        let broker = try AmqttBroker()
        let (workspace, agent) = try agent(broker, ["--simulate", "--beacons", "2", "--seed", "7"])
        defer { agent.signal(SIGKILL) }
        let locator = try ChildProcess(
            PackagePaths.binary, ["locate", "--config", workspace.config], output: workspace.log + ".locate")
        defer { locator.signal(SIGKILL) }
        let watcher = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { watcher.stop() }
        #expect(watcher.waitFor(timeout: 20) { $0.contains { $0.topic.hasSuffix("/location") } })
        #expect(
            watcher.waitFor { $0.contains { $0.topic == "beacons/locators/amqtt/status" && $0.payload == "online" } })
        locator.signal(SIGTERM)
        #expect(locator.wait(timeout: 15) == 0)
        ChaosTests.report("brokers amqtt: locate publishes locations and its status")
    }
}
