import BeaconCore
import Foundation
import MQTTTransport
import Settings
import Testing

@testable import IntegrationSupport

/// Configuration over MQTT end to end: a real mosquitto with users and the ACL that
/// docs/configuration.md shows, `beacon2mqtt run --simulate` as gateway `gw1`, and
/// `beacon2mqtt config` as the admin.
@Suite(.serialized) struct RemoteConfigTests {
    static let uuid = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
    static let other = "f7826da6-4fa2-4e98-8024-bc5b71e0893e"
    static let users = ["admin": "admin-secret", "gw1": "gw1-secret"]
    /// docs/configuration.md's ACL, for base topic `beacons`: the blocks of "Who may set what: a
    /// mosquitto ACL", read from the docs, so a topic the agent or its locator writes that the docs'
    /// ACL forgets is a `Denied PUBLISH` here.
    static let acl: String = {
        let docs =
            (try? String(
                contentsOf: PackagePaths.root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)) ?? ""
        let section = docs.components(separatedBy: "### Who may set what: a mosquitto ACL").dropFirst().first ?? ""
        let text = section.components(separatedBy: "\n### ").first ?? ""
        // Every other piece between fences is a block's contents.
        return text.components(separatedBy: "```\n").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            .joined(separator: "\n")
    }()

    /// A broker with the ACL, the gateway's and the admin's configuration files, and a state directory.
    final class Fleet {
        let broker: MosquittoBroker
        let directory: URL
        let gatewayConfig: String
        let adminConfig: String
        let state: String
        let log: String

        init(regions: String) throws {
            let broker = try MosquittoBroker(
                users: RemoteConfigTests.users, acl: RemoteConfigTests.acl, persistence: true)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let state = directory.appendingPathComponent("state").path
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            func mqtt(_ user: String) throws -> String {
                try BrokerUser.mqttSection(
                    user, password: RemoteConfigTests.users[user]!, port: broker.port, in: directory)
            }
            let gatewayConfig = directory.appendingPathComponent("gw1.yaml").path
            try """
            gateway:
              id: gw1
              room: hall
            \(try mqtt("gw1"))
            remote_config:
              enabled: true
            \(regions)
            """.write(toFile: gatewayConfig, atomically: true, encoding: .utf8)
            let adminConfig = directory.appendingPathComponent("admin.yaml").path
            try "gateway:\n  id: admin\n\(try mqtt("admin"))\n".write(
                toFile: adminConfig, atomically: true, encoding: .utf8)
            self.broker = broker
            self.directory = directory
            self.state = state
            self.gatewayConfig = gatewayConfig
            self.adminConfig = adminConfig
            log = directory.appendingPathComponent("agent.log").path
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func startGateway() throws -> ChildProcess {
            var environment = ProcessInfo.processInfo.environment
            environment["STATE_DIRECTORY"] = state
            return try ChildProcess(
                PackagePaths.binary, ["run", "--config", gatewayConfig, "--simulate"], output: log,
                environment: environment)
        }

        var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        /// `beacon2mqtt config <arguments> --config admin.yaml`.
        func config(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
            try PackagePaths.run(["config"] + arguments + ["--config", adminConfig, "--wait", "15"])
        }

        /// An admin subscriber to `pattern`.
        func watch(_ pattern: String) throws -> TestSubscriber {
            try TestSubscriber(port: broker.port, pattern: pattern) {
                $0.username = "admin"
                $0.password = RemoteConfigTests.users["admin"]
            }
        }
    }

    /// A fleet with gateway gw1 running and an admin subscriber to `pattern`; the agent is killed at the end.
    final class Running {
        let fleet: Fleet
        let agent: ChildProcess
        let watcher: TestSubscriber

        init(regions: String, watching pattern: String) throws {
            fleet = try Fleet(regions: regions)
            agent = try fleet.startGateway()
            watcher = try fleet.watch(pattern)
        }

        deinit {
            agent.signal(SIGKILL)
            watcher.stop()
        }

        /// Waits until the gateway has published its effective configuration.
        func announced() -> Bool { watcher.waitFor { _ in RemoteConfigTests.effective(self.watcher) != nil } }
    }

    static let elsewhere = "regions:\n  - name: elsewhere\n    uuid: \(other)"

    /// The effective configuration the gateway has published, once it has.
    static func effective(_ watcher: TestSubscriber) -> String? {
        watcher.messages(on: "beacons/gateways/gw1/config").last?.payload
    }

    @Test func aFleetBeaconNameReachesTheNextEnterAndTheGatewayLayerBeatsTheFleet() throws {
        let running = try Running(regions: Self.elsewhere, watching: "beacons/#")
        let (fleet, watcher) = (running.fleet, running.watcher)
        #expect(running.announced())
        // The simulated beacons match no region yet: name beacon 1 for the whole fleet, then
        // add a region it is in; its enter carries the name.
        let named = try fleet.config([
            "set", "--fleet", "beacons", #"[{"uuid":"\#(Self.uuid)","major":1,"minor":1,"name":"keys"}]"#,
        ])
        #expect(named.code == 0, "\(named)")
        #expect(named.stdout == "gw1: applied\n")
        let region = try fleet.config(["set", "--fleet", "regions", #"{"office":{"uuid":"\#(Self.uuid)"}}"#])
        #expect(region.code == 0, "\(region)")
        let event = "beacons/\(Self.uuid)/1/1/gw1/event"
        #expect(watcher.waitFor { m in m.contains { $0.topic == event && $0.payload.contains(#""name":"keys""#) } })
        // A fleet room, then this gateway's own: the gateway layer wins, key by key.
        #expect(try fleet.config(["set", "--fleet", "gateway.room", "lobby"]).code == 0)
        #expect(try fleet.config(["set", "--gateway", "gw1", "gateway.room", "kitchen"]).code == 0)
        let shown = try fleet.config(["show", "--gateway", "gw1"])
        #expect(shown.code == 0)
        #expect(shown.stdout.contains(#""gateway":{"id":"gw1","room":"kitchen"}"#), "\(shown.stdout)")
        #expect(shown.stdout.contains(#""source":"beacons/fleet/config/set","applied":""#))
        #expect(shown.stdout.contains(#""username":"<redacted>""#))
        #expect(!shown.stdout.contains("gw1.password"))
        #expect(try fleet.config(["get", "--fleet", "gateway.room"]).stdout == "\"lobby\"\n")
        // Removing the gateway's override brings the fleet's value back.
        #expect(try fleet.config(["unset", "--gateway", "gw1", "gateway.room"]).code == 0)
        #expect(try fleet.config(["show", "--gateway", "gw1"]).stdout.contains(#""room":"lobby""#))
    }

    @Test func aRegionRemovedOverMQTTHasItsRetainedStateCleared() throws {
        let running = try Running(
            regions: "regions:\n  - name: zone\n    uuid: \(Self.uuid)", watching: "beacons/regions/#")
        let (fleet, watcher) = (running.fleet, running.watcher)
        #expect(
            watcher.waitFor { m in m.contains { $0.topic == "beacons/regions/zone/gw1/state" && $0.payload == "inside" }
            })
        let removed = try fleet.config(["set", "--gateway", "gw1", "regions", #"{"zone":null}"#])
        #expect(removed.code == 0, "\(removed)")
        #expect(
            watcher.waitFor { m in m.contains { $0.topic == "beacons/regions/zone/gw1/state" && $0.payload.isEmpty } })
        // Nothing of zone is retained any more.
        let late = try fleet.watch("beacons/regions/#")
        defer { late.stop() }
        _ = waitUntil(timeout: 1) { false }
        #expect(late.messages.isEmpty, "\(late.messages)")
    }

    @Test func eachBadPayloadGivesAnErrorAndLeavesTheEffectiveConfigurationUnchanged() throws {
        let running = try Running(regions: Self.elsewhere, watching: "beacons/gateways/gw1/#")
        let (fleet, agent, watcher) = (running.fleet, running.agent, running.watcher)
        #expect(running.announced())
        let before = try #require(Self.effective(watcher))
        let admin = try fleet.watch("beacons/nothing")
        defer { admin.stop() }
        let cases: [(payload: String, says: String)] = [
            (#"{"gateway": {"room": "x"}"#, "beacons/gateways/gw1/config/set:2:1: did not find expected ',' or '}'"),
            ("gateway:\n  room: [a\n", "beacons/gateways/gw1/config/set:"),
            (
                #"{"monitoring": {"exit_timout": "5s"}}"#,
                "monitoring.exit_timout: unknown key; did you mean 'exit_timeout'?"
            ),
            ("gateway:\n  rssi_offset: loud\n", "gateway.rssi_offset: expected a number, found 'loud'"),
            (#"{"mqtt": {"host": "elsewhere"}}"#, "mqtt: takes effect only after a restart"),
            (#"{"scanner": {"adapter": "hci1"}}"#, "scanner: takes effect only after a restart"),
            (#"{"gateway": {"room": "\#(String(repeating: "x", count: 70_000))"}}"#, "over the limit of 65536"),
        ]
        for (n, c) in cases.enumerated() {
            _ = admin.client.publish(
                topic: "beacons/gateways/gw1/config/set", payload: Array(c.payload.utf8), qos: 1, retain: true)
            #expect(
                watcher.waitFor { m in m.filter { $0.topic == "beacons/gateways/gw1/config/error" }.count == n + 1 },
                "case \(n)")
            let error = watcher.messages(on: "beacons/gateways/gw1/config/error").last?.payload ?? ""
            #expect(error.contains(c.says), "\(error)")
            // The digest names the payload refused, so `config set` can tell the answer to its own change.
            let digest = ConfigLayer.digest(Array(c.payload.utf8))
            #expect(
                error.hasPrefix(
                    #"{"layer":"gateway","source":"beacons/gateways/gw1/config/set","digest":"\#(digest)","diagnostics":["#
                ))
            #expect(error.contains(#""time":""#))
            _ = waitUntil(timeout: 1.1) { false }  // past the rate limit
        }
        #expect(Self.effective(watcher) == before)
        #expect(agent.isRunning)
        // The client exits non-zero on a refusal, and says why (it edits the retained layer: clear the oversize one).
        _ = admin.client.publish(topic: "beacons/gateways/gw1/config/set", payload: [], qos: 1, retain: true)
        _ = waitUntil(timeout: 1.1) { false }
        let refused = try fleet.config(["set", "--gateway", "gw1", "mqtt.port", "1884"])
        #expect(refused.code == 1)
        #expect(refused.stderr.contains("gw1: refused:"))
        #expect(refused.stderr.contains("takes effect only after a restart"))
    }

    @Test func aRestartWithTheBrokerDownStartsWithTheKeptLayers() throws {
        let fleet = try Fleet(regions: Self.elsewhere)
        let first = try fleet.startGateway()
        let watcher = try fleet.watch("beacons/gateways/gw1/config")
        #expect(watcher.waitFor { _ in Self.effective(watcher) != nil })
        #expect(try fleet.config(["set", "--fleet", "gateway.room", "lobby"]).code == 0)
        watcher.stop()
        first.signal(SIGTERM)
        #expect(first.wait(timeout: 10) == 0)
        #expect(FileManager.default.fileExists(atPath: fleet.state + "/config-fleet.layer"))
        fleet.broker.stop()
        let second = try fleet.startGateway()
        defer { second.signal(SIGKILL) }
        #expect(
            waitUntil(timeout: 10) {
                fleet.logText.contains("configuration layers kept from the last run applied layers=fleet")
            })
        // Back with its broker (which kept the retained layer), the gateway re-reads the layers.
        try fleet.broker.start()
        let again = try fleet.watch("beacons/gateways/gw1/config")
        defer { again.stop() }
        #expect(again.waitFor(timeout: 15) { _ in Self.effective(again)?.contains(#""room":"lobby""#) == true })
        #expect(
            waitUntil(timeout: 10) {
                fleet.logText.contains("configuration layer applied layer=fleet source=beacons/fleet/config/set")
            })
    }

    @Test func aUserWithoutTheAdminACLIsRefusedByTheBroker() throws {
        let running = try Running(regions: Self.elsewhere, watching: "beacons/#")
        let (fleet, watcher) = (running.fleet, running.watcher)
        #expect(running.announced())
        let before = Self.effective(watcher)
        // The gateway's own user may read the set topics but not write them.
        let intruder = try TestSubscriber(port: fleet.broker.port, pattern: "beacons/fleet/config/set") {
            $0.username = "gw1"
            $0.password = RemoteConfigTests.users["gw1"]
        }
        defer { intruder.stop() }
        for topic in ["beacons/fleet/config/set", "beacons/gateways/gw1/config/set"] {
            _ = intruder.client.publish(
                topic: topic, payload: Array(#"{"gateway":{"room":"pwned"}}"#.utf8), qos: 1, retain: true)
        }
        #expect(waitUntil(timeout: 5) { fleet.broker.logText.contains("Denied PUBLISH from") })
        _ = waitUntil(timeout: 1.5) { false }
        #expect(!watcher.messages.contains { $0.topic.hasSuffix("/config/set") })
        #expect(Self.effective(watcher) == before)
        #expect(!fleet.logText.contains("pwned"))
    }
    /// `locator` and `log_level` change at run time too: a layer switches the embedded locator on
    /// (it comes online and places the gateway's beacons) and off again (offline), and the log
    /// level follows a layer from the next line on.
    @Test func aLayerStartsAndStopsTheEmbeddedLocatorAndSetsTheLogLevel() throws {
        let running = try Running(regions: "regions:\n  - name: office\n    uuid: \(Self.uuid)", watching: "beacons/#")
        let (fleet, watcher) = (running.fleet, running.watcher)
        #expect(running.announced())
        #expect(!watcher.messages.contains { $0.topic == "beacons/locators/gw1/status" })
        let on = try fleet.config(["set", "--gateway", "gw1", "locator", #"{"enabled": true, "min_dwell": "5s"}"#])
        #expect(on.code == 0, "\(on)")
        #expect(
            watcher.waitFor(timeout: 15) { m in
                m.contains { $0.topic == "beacons/locators/gw1/status" && $0.payload == "online" }
            },
            "\(fleet.logText)")
        #expect(
            watcher.waitFor(timeout: 30) { m in
                m.contains { $0.topic.hasSuffix("/location") && $0.payload.contains(#""gateway":"gw1""#) }
            }, "\(fleet.logText)")
        // The log level: at warning, an applied layer is not logged; back at info, it is.
        let applied = { fleet.logText.components(separatedBy: "configuration layer applied").count }
        #expect(try fleet.config(["set", "--fleet", "log_level", "warning"]).code == 0)
        let quiet = applied()
        _ = waitUntil(timeout: 1.1) { false }  // past the rate limit
        #expect(try fleet.config(["set", "--fleet", "gateway.floor", "2"]).code == 0)
        #expect(applied() == quiet, "\(fleet.logText)")
        _ = waitUntil(timeout: 1.1) { false }
        #expect(try fleet.config(["unset", "--fleet", "log_level"]).code == 0)
        #expect(waitUntil(timeout: 5) { applied() == quiet + 1 }, "\(fleet.logText)")
        // Switched off: the locator stops cleanly and says so on its status topic.
        let off = try fleet.config(["unset", "--gateway", "gw1", "locator"])
        #expect(off.code == 0, "\(off)")
        #expect(
            watcher.waitFor(timeout: 15) { m in
                m.last { $0.topic == "beacons/locators/gw1/status" }?.payload == "offline"
            }, "\(fleet.logText)")
        #expect(waitUntil(timeout: 5) { fleet.logText.contains("embedded locator stopped") })
        #expect(running.agent.isRunning)
        #expect(!fleet.broker.logText.contains("Denied PUBLISH from gw1"), "\(fleet.broker.logText)")
    }
    /// `telemetry` and `devices` change at run time too: a layer switches telemetry on (the
    /// simulated iBeacons' TX power and advertising interval are published) and adds a device,
    /// which the effective configuration then lists. (The simulator's reports all carry a beacon
    /// frame, so a device is not seen end to end here; DeviceMonitoringTests and the pipeline's
    /// reload tests cover its tracking.)
    @Test func aLayerSwitchesTelemetryOnAndAddsADevice() throws {
        let running = try Running(regions: "regions:\n  - name: office\n    uuid: \(Self.uuid)", watching: "beacons/#")
        let (fleet, watcher) = (running.fleet, running.watcher)
        #expect(running.announced())
        #expect(!watcher.messages.contains { $0.topic.hasSuffix("/telemetry") })
        let telemetry = try fleet.config(["set", "--fleet", "telemetry", #"{"enabled": true, "interval": "2s"}"#])
        #expect(telemetry.code == 0, "\(telemetry)")
        #expect(
            watcher.waitFor(timeout: 20) { m in
                m.contains { $0.topic.hasSuffix("/gw1/telemetry") && !$0.payload.isEmpty }
            },
            "\(fleet.logText)")
        let device = try fleet.config([
            "set", "--gateway", "gw1", "devices", #"{"tag": {"address": "c0:ff:ee:00:10:01"}}"#,
        ])
        #expect(device.code == 0, "\(device)")
        let shown = try fleet.config(["show", "--gateway", "gw1"])
        #expect(shown.stdout.contains(#""devices":[{"name":"tag","address":"c0:ff:ee:00:10:01"}]"#), "\(shown.stdout)")
    }
}
