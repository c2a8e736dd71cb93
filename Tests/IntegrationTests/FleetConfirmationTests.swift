import Foundation
import MQTTTransport
import Testing

@testable import IntegrationSupport

/// `config set --fleet` against several real gateways on one mosquitto (users and docs'
/// ACL): each gateway the broker holds a retained status or effective configuration of is named
/// with what it did — applied, refused and why, no answer, offline, no remote configuration — with
/// a summary line and an exit code a script can use.
@Suite(.serialized) struct FleetConfirmationTests {
    static let users = ["admin": "admin-secret", "gw1": "gw1-secret", "gw2": "gw2-secret", "gw3": "gw3-secret"]

    final class Site {
        let broker: MosquittoBroker
        let directory: URL
        var agents: [String: ChildProcess] = [:]

        init() throws {
            broker = try MosquittoBroker(
                users: FleetConfirmationTests.users, acl: RemoteConfigTests.acl, persistence: true)
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("site-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        deinit {
            for agent in agents.values { agent.signal(SIGKILL) }
            try? FileManager.default.removeItem(at: directory)
        }

        /// `<user>.yaml`: the broker as `user`, and `extra` (the gateway's own sections).
        func configFile(_ user: String, _ extra: String) throws -> String {
            let path = directory.appendingPathComponent("\(user).yaml").path
            try """
            gateway:
              id: \(user)
            \(try BrokerUser.mqttSection(user, password: FleetConfirmationTests.users[user]!, port: broker.port, in: directory))
            \(extra)
            """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        func start(_ gw: String, _ extra: String) throws {
            let state = directory.appendingPathComponent("state-\(gw)").path
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            var environment = ProcessInfo.processInfo.environment
            environment["STATE_DIRECTORY"] = state
            agents[gw] = try ChildProcess(
                PackagePaths.binary, ["run", "--config", try configFile(gw, extra), "--simulate", "--beacons", "1"],
                output: directory.appendingPathComponent("\(gw).log").path, environment: environment)
        }

        func config(_ arguments: [String], wait: Int = 15) throws -> (code: Int32, stdout: String, stderr: String) {
            try PackagePaths.run(
                ["config"] + arguments + ["--config", try configFile("admin", ""), "--wait", String(wait)])
        }
    }

    @Test func aFleetChangeNamesEveryGatewayWithWhatItDid() throws {
        let site = try Site()
        // gw1 and gw2 take configuration over MQTT; gw2's file makes a fleet-wide locator.min_history
        // of 3 invalid there (more than its history_window). gw3 does not take remote configuration.
        try site.start("gw1", "remote_config:\n  enabled: true")
        try site.start("gw2", "remote_config:\n  enabled: true\nlocator:\n  history_window: 2\n  min_history: 2")
        try site.start("gw3", "")
        let watcher = try TestSubscriber(port: site.broker.port, pattern: "beacons/gateways/#") {
            $0.username = "admin"
            $0.password = FleetConfirmationTests.users["admin"]
        }
        defer { watcher.stop() }
        // gw4 was here once: its will left a retained offline.
        _ = watcher.client.publish(
            topic: "beacons/gateways/gw4/status", payload: Array("offline".utf8), qos: 1, retain: true)
        #expect(
            watcher.waitFor(timeout: 20) { m in
                let topics = Set(m.map(\.topic))
                return [
                    "beacons/gateways/gw1/config", "beacons/gateways/gw2/config", "beacons/gateways/gw3/status",
                    "beacons/gateways/gw4/status",
                ]
                .allSatisfy(topics.contains)
            })

        let refused = try site.config(["set", "--fleet", "locator.min_history", "3"])
        #expect(refused.code == 1, "\(refused)")
        #expect(refused.stdout == "gw1: applied\n", "\(refused)")
        #expect(refused.stderr.contains("gw2: refused: beacons/fleet/config/set:1:"), "\(refused.stderr)")
        #expect(refused.stderr.contains("history_window"), "\(refused.stderr)")
        #expect(refused.stderr.contains("gw3: publishes no effective configuration"), "\(refused.stderr)")
        #expect(
            refused.stderr.contains("gw4: offline; it applies the retained layer when it connects again"),
            "\(refused.stderr)")
        #expect(
            refused.stderr.hasSuffix("4 gateways: 1 applied, 1 refused, 1 offline, 1 without remote configuration\n"),
            "\(refused.stderr)")

        // Removing the layer again: gw1 confirms, gw2 never ran it; offline and non-remote gateways
        // are named but fail the run only with --require-all.
        _ = waitUntil(timeout: 1.1) { false }  // past the rate limit
        let removed = try site.config(["unset", "--fleet", "locator"])
        #expect(removed.code == 0, "\(removed)")
        #expect(removed.stdout == "gw1: applied\ngw2: applied\n", "\(removed)")
        #expect(
            removed.stderr.hasSuffix("4 gateways: 2 applied, 1 offline, 1 without remote configuration\n"),
            "\(removed.stderr)")
        _ = waitUntil(timeout: 1.1) { false }
        let strict = try site.config(["set", "--fleet", "gateway.floor", "2", "--require-all"])
        #expect(strict.code == 1, "\(strict)")
        #expect(strict.stdout == "gw1: applied\ngw2: applied\n", "\(strict)")

        // A gateway that cannot answer (stopped, though its status still says online) times out,
        // named; the others are not held up by it.
        site.agents["gw1"]!.signal(SIGSTOP)
        defer { site.agents["gw1"]!.signal(SIGCONT) }
        _ = waitUntil(timeout: 1.1) { false }
        let started = Date()
        let stalled = try site.config(["set", "--fleet", "gateway.floor", "3"], wait: 4)
        #expect(stalled.code == 1, "\(stalled)")
        #expect(stalled.stdout == "gw2: applied\n", "\(stalled)")
        #expect(stalled.stderr.contains("gw1: no answer within 4 s"), "\(stalled.stderr)")
        #expect(
            stalled.stderr.hasSuffix("4 gateways: 1 applied, 1 no answer, 1 offline, 1 without remote configuration\n"),
            "\(stalled.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
        // A named gateway that is offline cannot confirm: that fails.
        let gone = try site.config(["set", "--gateway", "gw4", "gateway.room", "attic"])
        #expect(gone.code == 1, "\(gone)")
        #expect(gone.stderr.contains("gw4: offline"), "\(gone.stderr)")
    }
}
