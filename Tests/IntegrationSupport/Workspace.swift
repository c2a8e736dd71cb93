import Foundation
import Testing

/// `beacon2mqtt run` as a real process: a temporary directory with a configuration file for a broker
/// on `port` (`extra` is appended verbatim), and the agent started on it.
final class Workspace {
    let directory: URL
    let config: String
    let log: String

    init(port: Int, gateway: String = "e2e", extra: String = "") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        config = directory.appendingPathComponent("beacon2mqtt.yaml").path
        log = directory.appendingPathComponent("agent.log").path
        try write(port: port, gateway: gateway, extra: extra)
    }

    func write(port: Int, gateway: String = "e2e", extra: String = "") throws {
        let yaml = """
            gateway:
              id: \(gateway)
            mqtt:
              host: 127.0.0.1
              port: \(port)
              reconnect_min: 200ms
              reconnect_max: 1s
            \(extra)
            """
        try yaml.write(toFile: config, atomically: true, encoding: .utf8)
    }

    func start(_ arguments: [String] = ["--simulate"]) throws -> ChildProcess {
        try ChildProcess(PackagePaths.binary, ["run", "--config", config] + arguments, output: log)
    }

    var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The retained status topic of `gateway`.
    static func status(_ gateway: String = "e2e") -> String { "beacons/gateways/\(gateway)/status" }
}

/// A broker, a subscriber to `pattern`, and a simulating agent that has announced `online`.
struct Running {
    let broker: MosquittoBroker
    let subscriber: TestSubscriber
    let workspace: Workspace
    let agent: ChildProcess

    init(pattern: String = Workspace.status(), arguments: [String] = ["--simulate"]) throws {
        broker = try MosquittoBroker()
        subscriber = try TestSubscriber(port: broker.port, pattern: pattern)
        workspace = try Workspace(port: broker.port)
        agent = try workspace.start(arguments)
        let status = Workspace.status()
        #expect(subscriber.waitFor { $0.last { $0.topic == status }?.payload == "online" })
    }
}
