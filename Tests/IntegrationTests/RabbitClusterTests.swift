import Foundation
import Testing

@testable import IntegrationSupport

/// `make test-brokers` (B2M_BROKERS=1): a three-node RabbitMQ cluster (Debian's rabbitmq-server, private
/// nodes on loopback ports) with every process listing the nodes in `mqtt.host` and `mqtt.failover`.
/// An agent replays the real capture on node 1 while the floor plan's gateways (A on node 1, B on 2, C
/// on 3) and `locate` (node 1) follow a walk; node 1 is SIGKILLed mid-walk and started again. A
/// persistent-session witness on node 3 counts the events (docs/reliability.md, "A RabbitMQ cluster").
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["B2M_BROKERS"] != nil && RabbitBroker.isInstalled,
        "RabbitMQ: make test-brokers"))
struct RabbitClusterTests {
    /// The walk's processes' `mqtt.clean_session`: a persistent session is a durable queue on the node
    /// it was made on, so while that node is down no other node can take the client's subscriptions.
    static let cleanSession = ProcessInfo.processInfo.environment["B2M_CLUSTER_PERSISTENT"] == nil

    @Test func aNodeKilledMidWalkLosesNoEventAtASurvivingNode() throws {
        let clusterStarted = Date().timeIntervalSince1970
        let cluster = try RabbitCluster(count: 3)
        let formed = Date().timeIntervalSince1970 - clusterStarted
        let ports = cluster.nodes.map(\.port)
        let failover = "  failover: [\(ports.dropFirst().map { "\"127.0.0.1:\($0)\"" }.joined(separator: ", "))]\n"
        let witness = try TestSubscriber(port: ports[2], pattern: "#", clientID: "cluster-witness")
        defer { witness.stop() }
        let discovery = try TestSubscriber(port: ports[2], pattern: "homeassistant/#")
        defer { discovery.stop() }
        let workspace = try Workspace(
            port: ports[0], gateway: "chaos",
            extra: failover + ChaosTests.monitoring + "homeassistant:\n  discovery: true\n")
        let expected = try ChaosTests.expectedEvents(config: workspace.config)
        let directory = workspace.directory
        // The walk's processes start 36 s into it (office); the beacon walks to the lab from 40 s.
        let start = (Date().timeIntervalSince1970 + 4).rounded(.up) - 40
        var processes = try ChaosTests.floorPlanSite(
            "site", in: directory, port: ports[0], start: start,
            gatewayPort: { ["A": ports[0], "B": ports[1], "C": ports[2]][$0] },
            mqttSettings: failover + "  clean_session: \(Self.cleanSession)\n")
        let agent = try workspace.start(["--replay", ChaosTests.capture, "--speed", "10"])
        processes.append(agent)
        defer { for p in processes { p.signal(SIGKILL) } }
        let status = Workspace.status("chaos")
        let locatorStatus = "site/locators/loc-site/status"
        #expect(
            witness.waitFor(timeout: 20) { m in
                m.contains { $0.topic == status && $0.payload == "online" }
                    && m.contains { $0.topic == locatorStatus && $0.payload == "online" }
            }, "\(workspace.logText.suffix(2000))")
        Thread.sleep(forTimeInterval: max(start + 44 - Date().timeIntervalSince1970, 2))
        let killed = Date().timeIntervalSince1970
        cluster.nodes[0].kill()
        let agentOver = FailoverTests.online(witness, status: status, after: killed).map { $0 - killed }
        let locatorOver = FailoverTests.online(witness, status: locatorStatus, after: killed).map { $0 - killed }
        let gatewayOver = FailoverTests.online(witness, status: "site/gateways/A/status", after: killed).map {
            $0 - killed
        }
        Thread.sleep(forTimeInterval: max(killed + 8 - Date().timeIntervalSince1970, 0))
        let restarted = Date().timeIntervalSince1970
        try cluster.nodes[0].start()
        let back = Date().timeIntervalSince1970 - restarted
        #expect(agent.wait(timeout: 120) == 0, "\(workspace.logText.suffix(2000))")
        Thread.sleep(forTimeInterval: max(start + 66 - Date().timeIntervalSince1970, 0))

        // Retained after the restart: the agent's status and one discovery config, each through its
        // exact topic (RabbitMQ sends retained messages to exact subscriptions only), on every node.
        let config = discovery.messages.first { $0.topic.hasSuffix("/config") }?.topic ?? "none"
        func retained(_ topic: String, on port: Int) -> String {
            guard let reader = try? TestSubscriber(port: port, pattern: topic) else { return "-" }
            defer { reader.stop() }
            _ = reader.waitFor(timeout: 2) { $0.contains { $0.retained } }
            return reader.messages.last { $0.retained }.map { $0.payload.count > 20 ? "yes" : $0.payload } ?? "none"
        }
        let retainedStatus = ports.map { retained(status, on: $0) }
        let retainedConfig = ports.map { retained(config, on: $0) }
        for p in processes { p.signal(SIGTERM) }
        for p in processes { _ = p.wait(timeout: 20) }
        let locateLog =
            (try? String(contentsOf: directory.appendingPathComponent("site-locate.log"), encoding: .utf8)) ?? ""
        // Each gateway's proximity messages after the kill, as node 3 saw them.
        let heard = ["A", "B", "C"].map { g in
            witness.timedMessages.filter {
                $0.arrived > killed && $0.message.topic.hasPrefix("site/")
                    && $0.message.topic.hasSuffix("/\(g)/proximity")
            }.count
        }

        let agentEvents = ChaosTests.events(witness).filter { $0.topic.hasPrefix("beacons/") }
        let seen = Set(agentEvents)
        let lost = expected.filter { !seen.contains($0) }
        let tally = ChaosTests.Tally(expected: expected, received: agentEvents)
        let rooms = witness.timedMessages.filter {
            $0.message.topic.hasPrefix("site/") && $0.message.topic.hasSuffix("/event")
                && $0.message.topic.split(separator: "/").count == 5
        }
        .map {
            (
                room: CampusBridgeTests.field("room", $0.message.payload) ?? "unknown",
                at: ChaosTests.seconds(rfc3339: CampusBridgeTests.field("timestamp", $0.message.payload)) ?? 0,
                arrived: $0.arrived
            )
        }
        // Room, then the decided tick and the arrival, in seconds of the walk.
        let describe = { (r: [(room: String, at: Double, arrived: Double)]) in
            r.map { "\($0.room)@\(Int(($0.at - start).rounded()))/\(Int(($0.arrived - start).rounded()))" }
                .joined(separator: " ")
        }
        let reconnects = locateLog.components(separatedBy: "reconnected to broker").count - 1
        let seconds = { (t: Double?) in t.map { String(format: "%.1f s", $0) } ?? "never" }
        ChaosTests.report(
            "brokers RabbitMQ cluster of 3 (formed in \(Int(formed)) s), node 1 SIGKILLed at walk \(Int(killed - start)) s, "
                + "back \(String(format: "%.0f", back)) s after its start 8 s later: witness on node 3: \(tally); "
                + "online again on a surviving node: agent \(seconds(agentOver)), locator \(seconds(locatorOver)), "
                + "gateway A \(seconds(gatewayOver)); locator: \(reconnects) reconnects, locations \(describe(rooms)) (room@tick/arrival, walk s; kill at \(Int(killed - start))); "
                + "proximity at node 3 after the kill A/B/C \(heard.map(String.init).joined(separator: "/")); "
                + "retained status on nodes 1/2/3 \(retainedStatus.joined(separator: "/")), discovery config "
                + "\(retainedConfig.joined(separator: "/"))")
        print("NODELOGS\n" + cluster.nodes.map { $0.logText }.joined(separator: "\n=====NODE=====\n"))
        print("LOCATELOG\n" + locateLog)
        #expect(lost.isEmpty, "\(lost)")
        #expect(agentOver != nil && locatorOver != nil && gatewayOver != nil, "\(workspace.logText.suffix(2000))")
        // The locator stayed on the node it failed over to: RabbitMQ closes a client's connection on
        // another node when it subscribes at QoS 1 while its queue's node is down (docs/reliability.md).
        if Self.cleanSession { #expect(reconnects == 1, "\(locateLog.suffix(4000))") }
        // The locator went on deciding through the outage: the walk's hand-over to the lab came after the kill.
        let survivors = cluster.nodes.dropFirst().map { node in
            node.logText.split(separator: "\n").filter { $0.contains("site-locator") }.joined(separator: "\n")
        }
        #expect(
            rooms.contains { $0.room == "lab" && $0.arrived > killed },
            "\(describe(rooms)); proximity after the kill A/B/C \(heard)\n\(locateLog.suffix(4000))\n\(survivors)")
    }
}
