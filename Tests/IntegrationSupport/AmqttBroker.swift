import Foundation

/// A private amqtt broker (the PyPI implementation, `make test-brokers` installs it into
/// .build/amqtt-venv) on a free loopback port, anonymous, with no persistence: amqtt keeps retained
/// messages and sessions in memory only, so a restart forgets them.
final class AmqttBroker: @unchecked Sendable {
    static let executable = PackagePaths.root.appendingPathComponent(".build/amqtt-venv/bin/amqtt").path
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let port: Int
    let directory: URL
    private let config: URL
    private let log: URL
    private var process: ChildProcess?

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("amqtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try MosquittoBroker.freePort()
        config = directory.appendingPathComponent("amqtt.yaml")
        log = directory.appendingPathComponent("amqtt.log")
        let yaml = """
            listeners:
              default:
                type: tcp
                bind: 127.0.0.1:\(port)
            plugins:
              amqtt.plugins.authentication.AnonymousAuthPlugin:
                allow_anonymous: true
            """
        try yaml.write(to: config, atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    func start() throws {
        process = try ChildProcess(Self.executable, ["-c", config.path], output: log.path)
        guard waitUntil(timeout: 20, { MosquittoBroker.accepts(port: self.port) }) else {
            throw MosquittoBroker.BrokerError("amqtt did not listen on \(port): \(logText)")
        }
    }

    func kill() {
        guard let p = process else { return }
        p.signal(SIGKILL)
        p.wait(timeout: 10)
        process = nil
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}
