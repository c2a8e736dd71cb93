import Foundation
import Testing

@testable import IntegrationSupport

/// The state directory (`$STATE_DIRECTORY`, /var/lib/beacon2mqtt: the configuration layers set over
/// MQTT) on a real read-only or full file system — a small tmpfs mounted over it (root, as
/// `make test-chaos` runs): a clear warning, and the agent goes on applying layers and publishing.
extension ChaosTests {
    /// Mounts a tmpfs at `path` (`ro`, or 16 KiB filled to the last byte); nil when it could not.
    static func mount(_ kind: String, at path: String) -> String? {
        let options = kind == "read-only" ? "ro,size=64k" : "size=16k"
        let mount = try? ChildProcess("/bin/mount", ["-t", "tmpfs", "-o", options, "b2m-chaos-state", path])
        guard mount?.wait(timeout: 10) == 0 else { return "mount -t tmpfs -o \(options) failed (not root?)" }
        guard kind == "full" else { return nil }
        // Fill it: dd stops at ENOSPC.
        let fill = try? ChildProcess("/bin/dd", ["if=/dev/zero", "of=\(path)/fill", "bs=1k"], output: "/dev/null")
        _ = fill?.wait(timeout: 10)
        return FileManager.default.createFile(atPath: path + "/probe", contents: Data(repeating: 1, count: 4096))
            ? "the tmpfs is not full" : nil
    }

    @Test(arguments: ["read-only", "full"])
    func aReadOnlyOrFullStateDirectoryWarnsAndTheAgentGoesOn(kind: String) throws {
        let fleet = try RemoteConfigTests.Fleet(regions: RemoteConfigTests.elsewhere)
        if let problem = Self.mount(kind, at: fleet.state) {
            Issue.record("\(problem)")
            return
        }
        defer { _ = try? ChildProcess("/bin/umount", [fleet.state]).wait(timeout: 10) }
        let agent = try fleet.startGateway()
        defer { agent.signal(SIGKILL) }
        let watcher = try fleet.watch("beacons/#")
        defer { watcher.stop() }
        #expect(watcher.waitFor { _ in RemoteConfigTests.effective(watcher) != nil })
        if kind == "read-only" {
            #expect(
                fleet.logText.contains("warning: state directory not writable")
                    && fleet.logText.contains("Read-only file system"), "\(fleet.logText)")
        }
        // A region the simulated beacons are in, set over MQTT: applied though it cannot be kept.
        let set = try fleet.config(["set", "--fleet", "regions", #"{"office":{"uuid":"\#(RemoteConfigTests.uuid)"}}"#])
        #expect(set.code == 0, "\(set)")
        let reason = kind == "read-only" ? "Read-only file system" : "No space left on device"
        #expect(
            waitUntil(timeout: 10) {
                fleet.logText.contains("warning: configuration layer not kept in the state directory")
                    && fleet.logText.contains(reason)
            }, "\(fleet.logText)")
        #expect(!FileManager.default.fileExists(atPath: fleet.state + "/config-fleet.layer"))
        // It keeps running and publishing: the region's enter arrives, the status stays online.
        #expect(
            watcher.waitFor(timeout: 15) { m in
                m.contains { $0.topic.hasPrefix("beacons/regions/office/") && $0.topic.hasSuffix("/event") }
            })
        #expect(agent.isRunning)
        #expect(watcher.messages(on: "beacons/gateways/gw1/status").last?.payload == "online")
        let warning =
            fleet.logText.split(separator: "\n").first { $0.contains("not kept in the state directory") } ?? ""
        Self.report("chaos state directory \(kind): agent running, region event published; log: \(warning)")
    }
}
