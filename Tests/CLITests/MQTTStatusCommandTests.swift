import BeaconCore
import BeaconWire
import Foundation
import Settings
import Synchronization
import Testing
import Vocabulary

@testable import CLI
@testable import IntegrationSupport
@testable import Platform

/// `beacon2mqtt status` in-process against a real mosquitto with a running agent.
@Suite(.serialized) struct MQTTStatusCommandTests {
    final class Output: Sendable {
        let out = Mutex("")
        let err = Mutex("")
        var context: CommandContext {
            CommandContext(
                environment: [:], stdout: { text in self.out.withLock { $0 += text } },
                stderr: { text in self.err.withLock { $0 += text } })
        }
    }

    @Test func listsEveryGatewayWithItsStatusAndStats() throws {
        let broker = try MosquittoBroker()
        var configuration = AgentHarness.configuration(port: broker.port)
        configuration.mqtt.statsInterval = .seconds(1)
        let harness = try AgentHarness(
            configuration: configuration, source: ScriptedSource(count: 4, interval: 0, endsAfterLast: false))
        let watcher = try TestSubscriber(port: broker.port, pattern: "beacons/gateways/gw1/stats")
        // Stats go out every second from the start: wait for one taken after the four packets (a loaded
        // machine can publish the first before the pipeline took them).
        #expect(watcher.waitFor(timeout: 20) { $0.contains { $0.payload.contains(#""beacons_tracked":4"#) } })
        watcher.stop()
        let workspace = try Workspace(port: broker.port, gateway: "probe")
        let output = Output()
        let code = CommandLineTool.main(["status", "--config", workspace.config], context: output.context)
        #expect(code == .success, "\(output.err.withLock { $0 })")
        let lines = output.out.withLock { $0 }.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines.first?.first == "GATEWAY")
        let row = try #require(lines.first { $0.first == "gw1" })
        #expect(row[1] == "online")
        // The BEACONS column comes from the stats message: packets 1…4 are 4 scripted beacons (n % 5).
        #expect(row[5] == "4")
        // AGE: the stats message is seconds old.
        #expect(row[3].hasSuffix("s") && row[3].count <= 3, "\(row)")
        // The probe never announced itself, and the agent still runs (its client id was not taken).
        #expect(!lines.contains { $0.first == "probe" })
        harness.signal(SIGTERM)
        #expect(harness.wait(timeout: 10)?.0 == .success)
    }

    @Test func anUnreachableBrokerExits69() throws {
        let workspace = try Workspace(port: try MosquittoBroker.freePort())
        let output = Output()
        let code = CommandLineTool.main(
            ["status", "--config", workspace.config, "--wait", "2"], context: output.context)
        #expect(code == .unavailable)
        #expect(output.err.withLock { $0 }.contains("cannot reach the broker"))
    }

    /// With `mqtt.failover`, status tries every broker: it names them all when none answers, and the
    /// one it reached when that one knows no gateway.
    @Test func statusTriesAndNamesTheFailoverBrokers() throws {
        let first = try MosquittoBroker.freePort()
        let second = try MosquittoBroker.freePort()
        let workspace = try Workspace(port: first, extra: "  failover: [\"127.0.0.1:\(second)\"]\n")
        let output = Output()
        #expect(
            CommandLineTool.main(["status", "--config", workspace.config, "--wait", "2"], context: output.context)
                == .unavailable)
        #expect(
            output.err.withLock { $0 }.contains(
                "cannot reach the broker at mqtt://127.0.0.1:\(first), mqtt://127.0.0.1:\(second): "),
            "\(output.err.withLock { $0 })")

        let broker = try MosquittoBroker()
        try workspace.write(port: first, extra: "  failover: [\"127.0.0.1:\(broker.port)\"]\n")
        let reached = Output()
        #expect(
            CommandLineTool.main(["status", "--config", workspace.config, "--wait", "5"], context: reached.context)
                == .failure)
        #expect(
            reached.err.withLock { $0 }.contains("on mqtt://127.0.0.1:\(broker.port)"), "\(reached.err.withLock { $0 })"
        )
    }

    @Test func uptimeReadsAsDaysHoursMinutes() {
        #expect(
            ["42s", "5m07s", "1h02m", "3d04h"]
                == [42, 5 * 60 + 7, 3600 + 2 * 60, 3 * 86400 + 4 * 3600].map(StatusCommand.duration))
    }
}
