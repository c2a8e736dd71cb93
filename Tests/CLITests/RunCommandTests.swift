import BeaconCore
import BeaconWire
import CLI
import Foundation
import Testing

@testable import IntegrationSupport

/// `beacon2mqtt run` as a real process (the `swift build` product) against a real mosquitto:
/// signals, the Last Will, exit codes, and memory with the broker away.
@Suite(.serialized) struct RunCommandTests {
    static let packageRoot = PackagePaths.root
    static let binary = PackagePaths.binary

    @Test func sigtermPublishesOfflineAndExitsZero() throws {
        let running = try Running()
        let (subscriber, workspace, agent) = (running.subscriber, running.workspace, running.agent)
        defer { subscriber.stop() }
        agent.signal(SIGTERM)
        #expect(agent.wait(timeout: 10) == 0)
        #expect(subscriber.waitFor { $0.last?.payload == "offline" })
        #expect(workspace.logText.contains("info: stopping signal=SIGTERM"))
    }

    @Test func sigkillMakesTheBrokerPublishTheLastWill() throws {
        let running = try Running()
        let (broker, subscriber, agent) = (running.broker, running.subscriber, running.agent)
        defer { subscriber.stop() }
        agent.signal(SIGKILL)
        #expect(agent.wait(timeout: 10) == 128 + SIGKILL)
        #expect(subscriber.waitFor { $0.last?.payload == "offline" })
        // Retained: the will stays on the topic for late subscribers.
        let late = try TestSubscriber(port: broker.port, pattern: Workspace.status())
        defer { late.stop() }
        #expect(late.waitFor { $0 == [.init(topic: Workspace.status(), payload: "offline", qos: 1, retained: true)] })
    }

    @Test func sighupReloadsAGoodFileAndKeepsRunningOnABrokenOne() throws {
        let running = try Running(pattern: "beacons/#")
        let (broker, subscriber, workspace, agent) = (
            running.broker, running.subscriber, running.workspace, running.agent
        )
        defer { subscriber.stop() }
        try workspace.write(
            port: broker.port,
            extra: """
                regions:
                  - name: office
                    uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
                """)
        agent.signal(SIGHUP)
        #expect(waitUntil(timeout: 10) { workspace.logText.contains("configuration reloaded regions=1") })
        // The new region takes effect: the simulated beacons (that UUID) put it inside.
        #expect(
            subscriber.waitFor {
                $0.contains { $0.topic == "beacons/regions/office/e2e/state" && $0.payload == "inside" }
            })
        try "mqtt: [not, a, mapping\n".write(toFile: workspace.config, atomically: true, encoding: .utf8)
        agent.signal(SIGHUP)
        #expect(
            waitUntil(timeout: 10) { workspace.logText.contains("reload failed; keeping the running configuration") })
        #expect(agent.isRunning)
        agent.signal(SIGTERM)
        #expect(agent.wait(timeout: 10) == 0)
    }

    @Test func aBadConfigurationExits78AndAnUnreachableRequiredBrokerExits69() throws {
        let workspace = try Workspace(port: try MosquittoBroker.freePort(), extra: "  require_broker_at_start: true")
        let unavailable = try workspace.start()
        #expect(unavailable.wait(timeout: 20) == 69)
        #expect(workspace.logText.contains("broker unavailable at start"))
        try "mqtt:\n  port: many\n".write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let broken = try workspace.start()
        #expect(broken.wait(timeout: 10) == 78)
        #expect(workspace.logText.contains("beacon2mqtt.yaml:2:"))
    }

    /// The exit code comes from the source's error: a damaged capture is EX_DATAERR, after what
    /// came before the damage was handled.
    @Test func aDamagedReplayExits65() throws {
        let source = PackagePaths.captures.appendingPathComponent(
            "csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log")
        let bytes = try Data(contentsOf: source)
        let path = NSTemporaryDirectory() + "b2m-run-truncated-\(UUID().uuidString).log"
        try bytes.prefix(bytes.count / 5).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let workspace = try Workspace(port: try MosquittoBroker.freePort())
        let agent = try workspace.start(["--replay", path, "--speed", "max"])
        #expect(agent.wait(timeout: 20) == 65)
        #expect(workspace.logText.contains("error: source failed; stopping"))
        #expect(workspace.logText.contains("offset"))
    }

    /// True when this kernel has no Bluetooth at all (containers, CI): the live source must fail.
    static let kernelLacksBluetooth: Bool = {
        let fd = socket(31, Int32(SOCK_RAW.rawValue), 1)  // AF_BLUETOOTH, BTPROTO_HCI
        if fd >= 0 { close(fd) }
        return fd < 0 && errno == EAFNOSUPPORT
    }()

    @Test(.enabled(if: kernelLacksBluetooth, "needs a kernel without Bluetooth"))
    func withoutBluetoothTheLiveSourceExits69() throws {
        let workspace = try Workspace(port: try MosquittoBroker.freePort())
        let agent = try workspace.start([])
        #expect(agent.wait(timeout: 15) == 69)
        #expect(workspace.logText.contains("error: source failed; stopping"))
        #expect(workspace.logText.contains("no Bluetooth support"))
    }

    @Test func aWorldReadablePasswordFileIsWarnedAboutAndNeverLogged() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwordFile = directory.appendingPathComponent("password").path
        try "s3cr3t-value\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        chmod(passwordFile, 0o644)
        let workspace = try Workspace(
            port: try MosquittoBroker.freePort(), extra: "  username: gw\n  password_file: \(passwordFile)")
        let agent = try workspace.start()
        defer { agent.signal(SIGKILL) }
        #expect(
            waitUntil(timeout: 10) {
                workspace.logText.contains(
                    "warning: \(workspace.config):9:18: mqtt.password_file: secret file '\(passwordFile)' is world-readable; chmod o-r it"
                )
            }, "\(workspace.logText)")
        #expect(waitUntil(timeout: 10) { workspace.logText.contains("cannot connect to broker") })
        #expect(!workspace.logText.contains("s3cr3t-value"))
    }

    @Test func memoryStaysFlatWithTheBrokerUnreachable() throws {
        let workspace = try Workspace(
            port: try MosquittoBroker.freePort(),
            extra: """
                  outbox_limit: 2000
                ranging:
                  interval: 100ms
                """)
        let agent = try workspace.start(["--simulate", "--beacons", "100"])
        defer { agent.signal(SIGKILL) }
        // Let it warm up, then compare the resident size over a few seconds of ~900 packets/s.
        #expect(waitUntil(timeout: 10) { workspace.logText.contains("not restored") })
        _ = waitUntil(timeout: 0.5) { false }
        let early = try #require(Self.residentKiB(agent.pid))
        _ = waitUntil(timeout: 4) { false }
        let late = try #require(Self.residentKiB(agent.pid))
        #expect(late < 80_000, "resident \(late) KiB")
        #expect(late - early < 8_000, "grew from \(early) to \(late) KiB")
        #expect(agent.isRunning)
    }

    @Test func aRestartedAgentEmitsNoSpuriousEnterOrExit() throws {
        let running = try Running(pattern: "beacons/#", arguments: ["--simulate", "--beacons", "2", "--seed", "7"])
        let (subscriber, workspace, first) = (running.subscriber, running.workspace, running.agent)
        defer { subscriber.stop() }
        func events() -> [String] {
            subscriber.messages.filter { $0.topic.hasSuffix("/event") }.map {
                "\($0.topic) \($0.payload.contains("enter") ? "enter" : "exit")"
            }
        }
        // Beacons 1 and 2 walk in first (each leaves a retained state and attributes: read=4 below) (the simulation keeps every third beacon away at start).
        #expect(subscriber.waitFor { _ in Set(events()).count == 2 })
        first.signal(SIGTERM)
        #expect(first.wait(timeout: 10) == 0)
        let before = events()
        let second = try workspace.start(["--simulate", "--beacons", "2", "--seed", "7"])
        #expect(waitUntil(timeout: 10) { workspace.logText.contains("restored retained states read=4") })
        // Both beacons are advertising 10 times a second: an enter would show within a few hundred ms.
        #expect(!waitUntil(timeout: 2) { events() != before }, "\(events())")
        second.signal(SIGTERM)
        #expect(second.wait(timeout: 10) == 0)
    }

    /// The issue's repeat: run with region `zone`, stop, remove `zone`, run again. The second run
    /// reads its retained states back and clears those of `zone`; `office` stays.
    @Test func aRegionRemovedWhileStoppedHasItsRetainedStateClearedAtStart() throws {
        let regions = """
            regions:
              - name: zone
                uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
              - name: office
                uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
            """
        let broker = try MosquittoBroker()
        let workspace = try Workspace(port: broker.port, extra: regions)
        let first = try workspace.start()
        let watcher = try TestSubscriber(port: broker.port, pattern: "beacons/regions/#")
        defer { watcher.stop() }
        #expect(
            watcher.waitFor { m in
                ["zone", "office"].allSatisfy { r in m.contains { $0.topic == "beacons/regions/\(r)/e2e/state" } }
            })
        first.signal(SIGTERM)
        #expect(first.wait(timeout: 10) == 0)
        try workspace.write(
            port: broker.port, extra: "regions:\n  - name: office\n    uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0")
        let second = try workspace.start()
        #expect(waitUntil(timeout: 10) { workspace.logText.contains("no longer configured topics=2") })
        second.signal(SIGTERM)
        #expect(second.wait(timeout: 10) == 0)
        // A late subscriber gets what the broker retains: office's state and attributes, nothing of zone.
        let late = try TestSubscriber(port: broker.port, pattern: "beacons/regions/#")
        defer { late.stop() }
        #expect(late.waitFor { Set($0.map(\.topic)).count == 2 })
        _ = waitUntil(timeout: 0.5) { false }
        #expect(
            Set(late.messages.map(\.topic)) == [
                "beacons/regions/office/e2e/state", "beacons/regions/office/e2e/attributes",
            ])
    }

    static func residentKiB(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
