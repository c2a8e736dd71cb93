import BeaconCore
import BeaconWire
import Foundation
import Synchronization

/// A private `mosquitto` broker for one test: a generated config in a temporary directory, a free
/// loopback port, and start/stop/kill/restart on the same port. Variants add a TLS listener or a
/// password file (made with `mosquitto_passwd -b`). Never a mock: this is the real broker.
final class MosquittoBroker: @unchecked Sendable {
    struct TLSListener {
        var caFile: String
        var certFile: String
        var keyFile: String
        var requireClientCertificate = false
    }

    let port: Int
    let directory: URL
    private let config: URL
    private var process: ChildProcess?
    private let log: URL

    /// - Parameters:
    ///   - acl: the text of an `acl_file` (with `users`: who may publish and read what).
    ///   - settings: further lines of `mosquitto.conf`.
    init(
        tls: TLSListener? = nil, users: [String: String]? = nil, acl: String? = nil, persistence: Bool = false,
        settings: [String] = []
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("broker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        config = directory.appendingPathComponent("mosquitto.conf")
        log = directory.appendingPathComponent("mosquitto.log")
        var lines = ["listener \(port) 127.0.0.1", "log_dest file \(log.path)", "log_type all"]
        if getuid() == 0 { lines.append("user root") }
        if persistence {
            // Saved after every change (subscription, queued or retained message), not every second: the
            // chaos tests kill the broker 0.2–0.8 s after each start, so a timed save never came and every
            // restart began with no sessions (CONNACK session-present 0), the witness's included.
            lines += [
                "persistence true", "persistence_location \(directory.path)/", "autosave_on_changes true",
                "autosave_interval 1",
            ]
        } else {
            lines.append("persistence false")
        }
        if let users {
            let passwd = directory.appendingPathComponent("passwd")
            _ = FileManager.default.createFile(atPath: passwd.path, contents: Data())
            for (user, password) in users.sorted(by: { $0.key < $1.key }) {
                try Self.run("/usr/bin/mosquitto_passwd", ["-b", passwd.path, user, password])
            }
            lines += ["allow_anonymous false", "password_file \(passwd.path)"]
        } else {
            lines.append("allow_anonymous true")
        }
        if let acl {
            let file = directory.appendingPathComponent("acl")
            try acl.write(to: file, atomically: true, encoding: .utf8)
            lines.append("acl_file \(file.path)")
        }
        if let tls {
            lines += ["cafile \(tls.caFile)", "certfile \(tls.certFile)", "keyfile \(tls.keyFile)"]
            if tls.requireClientCertificate { lines.append("require_certificate true") }
        }
        lines += settings
        try (lines.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the broker and waits until it accepts connections.
    func start() throws {
        process = try ChildProcess("/usr/sbin/mosquitto", ["-c", config.path])
        guard waitUntil(timeout: 10, { Self.accepts(port: self.port) }) else {
            throw BrokerError("mosquitto did not listen on \(port): \(logText)")
        }
    }

    /// SIGTERM: mosquitto saves persistence and exits.
    func stop() {
        guard let p = process else { return }
        p.signal(SIGTERM)
        if p.wait(timeout: 10) == nil { kill() }
        process = nil
    }

    func kill() {
        guard let p = process else { return }
        p.signal(SIGKILL)
        p.wait(timeout: 10)
        process = nil
    }

    func restart() throws {
        stop()
        try start()
    }

    /// The running broker's process id (for SIGSTOP/SIGCONT), nil when stopped.
    var pid: pid_t? { process?.pid }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    struct BrokerError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    static func freePort() throws -> Int {
        guard let port = bound(port: 0) else { throw BrokerError("no free port") }
        return port
    }

    /// A free port whose next one is free too, for a process that serves on both: drawn below the
    /// kernel's ephemeral range (32768…), where the ports of other tests (`freePort`, bound to
    /// port 0) never land, so none of them can take the second between the check and its use.
    static func freePortPair() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20000..<32000)
            if bound(port: port) == port, bound(port: port + 1) == port + 1 { return port }
        }
        throw BrokerError("no two free ports in a row")
    }

    /// Binds a loopback TCP socket to `port` (0: any) and closes it: the port bound, nil if taken.
    private static func bound(port: Int) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { ptr in
            ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, len) == 0 && getsockname(fd, sa, &len) == 0
            }
        }
        return ok ? Int(UInt16(bigEndian: addr.sin_port)) : nil
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &addr) { ptr in
            ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard p.terminationStatus == 0 else { throw BrokerError("\(tool) \(arguments) failed: \(text)") }
        return text
    }
}

/// Polls `condition` until it holds or `timeout` seconds pass; the tests' only way to wait.
func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}

/// Polls `condition` every 5 ms for up to 10 s; only a failing test ever waits that long.
func waitUntil(_ condition: () -> Bool) -> Bool {
    for _ in 0..<2000 {
        if condition() { return true }
        usleep(5000)
    }
    return condition()
}
