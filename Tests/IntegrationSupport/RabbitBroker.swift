import Foundation

/// A private RabbitMQ node with its MQTT plugin (Debian's `rabbitmq-server`; `make test-brokers`
/// installs it), on loopback ports of its own: its own node name, base directory, Erlang port mapper
/// (an `epmd` this object starts and stops) and configuration, never the system service. Anonymous
/// MQTT clients log in as `guest`, which RabbitMQ allows on loopback only. Its durable queues and its
/// retained-message store live in the base directory, so a restart keeps them.
final class RabbitBroker: @unchecked Sendable {
    static let server = "/usr/lib/rabbitmq/bin/rabbitmq-server"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: server) }

    let port: Int
    let directory: URL
    private let environment: [String: String]
    private let log: URL
    private var process: ChildProcess?
    private var epmd: ChildProcess?

    /// A cluster node rather than a node of its own.
    struct ClusterNode {
        /// The node's MQTT port (its node name is `b2m<port>@localhost`).
        var port: Int
        /// Every node's MQTT port, this one's among them: the cluster's peers (classic config discovery).
        var peers: [Int]
        /// The Erlang port mapper's port, which the cluster's nodes share (one of them starts it).
        var epmdPort: Int
        var startsEPMD: Bool
    }

    init(cluster node: ClusterNode? = nil) throws {
        // Short: Erlang's node and socket paths do not like long ones.
        directory = URL(fileURLWithPath: "/tmp/b2m-rmq-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try node?.port ?? MosquittoBroker.freePort()
        let amqp = try MosquittoBroker.freePort()
        let epmdPort = try node?.epmdPort ?? MosquittoBroker.freePort()
        let distribution = try MosquittoBroker.freePort()
        let base = directory.path
        log = directory.appendingPathComponent("rabbitmq.log")
        var conf = """
            listeners.tcp.default = 127.0.0.1:\(amqp)
            mqtt.listeners.tcp.default = 127.0.0.1:\(port)
            mqtt.allow_anonymous = true
            mqtt.default_user = guest
            mqtt.default_pass = guest

            """
        if let node {
            conf += "cluster_formation.peer_discovery_backend = classic_config\n"
            for (i, peer) in node.peers.enumerated() {
                conf += "cluster_formation.classic_config.nodes.\(i + 1) = b2m\(peer)@localhost\n"
            }
            // Erlang's distribution trusts nodes with the same cookie: one for the cluster.
            let cookie = directory.appendingPathComponent(".erlang.cookie")
            try "B2MCLUSTER\(node.epmdPort)".write(to: cookie, atomically: true, encoding: .utf8)
            chmod(cookie.path, 0o400)
        }
        try conf.write(to: directory.appendingPathComponent("rabbitmq.conf"), atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        for (name, value) in [
            "HOME": base, "RABBITMQ_CONF_ENV_FILE": "\(base)/none.conf", "RABBITMQ_NODENAME": "b2m\(port)@localhost",
            "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1", "RABBITMQ_NODE_PORT": "\(amqp)",
            "RABBITMQ_DIST_PORT": "\(distribution)",
            "ERL_EPMD_PORT": "\(epmdPort)", "ERL_EPMD_ADDRESS": "127.0.0.1", "RABBITMQ_BASE": base,
            "RABBITMQ_MNESIA_BASE": "\(base)/mnesia", "RABBITMQ_LOG_BASE": "\(base)/log",
            "RABBITMQ_CONFIG_FILE": "\(base)/rabbitmq.conf", "RABBITMQ_ENABLED_PLUGINS_FILE": "\(base)/enabled_plugins",
            "RABBITMQ_PID_FILE": "\(base)/pid", "RABBITMQ_LOGS": "-",
            // The script then execs the VM (no proxy shell), so SIGKILL reaches the broker itself.
            "RUNNING_UNDER_SYSTEMD": "true",
        ] {
            env[name] = value
        }
        environment = env
        if node?.startsEPMD ?? true {
            epmd = try ChildProcess(
                "/usr/bin/epmd", ["-port", "\(epmdPort)", "-address", "127.0.0.1"], output: "\(base)/epmd.log",
                environment: env)
        }
        // What `rabbitmq-plugins enable --offline rabbitmq_mqtt` writes, without its Erlang VM's boot
        // (a minute on a busy machine).
        try "[rabbitmq_mqtt].\n".write(
            to: directory.appendingPathComponent("enabled_plugins"), atomically: true, encoding: .utf8)
        if node == nil { try start() }
    }

    deinit {
        kill()
        epmd?.signal(SIGKILL)
        epmd?.wait(timeout: 10)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the node (again) and waits until its MQTT listener accepts: 5–25 s.
    func start() throws {
        try launch()
        try waitUntilListening()
    }

    /// Starts the node (again) without waiting for it.
    func launch() throws {
        process = try ChildProcess(Self.server, [], output: log.path, environment: environment)
    }

    /// Waits until the node's MQTT listener accepts, at most `timeout` seconds.
    func waitUntilListening(timeout: Double = 90) throws {
        guard waitUntil(timeout: timeout, { MosquittoBroker.accepts(port: self.port) }) else {
            throw MosquittoBroker.BrokerError("RabbitMQ did not listen on \(port): \(logText.suffix(3000))")
        }
    }

    /// SIGKILL on the Erlang VM (the script execs it): no clean shutdown.
    func kill() {
        guard let p = process else { return }
        p.signal(SIGKILL)
        p.wait(timeout: 20)
        process = nil
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}
