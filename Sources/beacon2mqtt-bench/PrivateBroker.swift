import Foundation

/// A private mosquitto on a free loopback port, so the e2e section never touches a broker that
/// something else uses (and never leaves loopback).
final class PrivateBroker {
    let port: Int
    private let process: Process

    init(scratch: ScratchDirectory) throws(BenchFailure) {
        guard let mosquitto = Subprocess.which("mosquitto") else {
            throw BenchFailure("mosquitto is not installed (scripts/install-deps.sh installs it)")
        }
        port = try Self.freePort()
        let config = try scratch.write(
            "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 0\n"
                + "max_inflight_messages 0\nset_tcp_nodelay true\nlog_type error\n",
            to: "mosquitto.conf")
        process = try Subprocess.spawn(mosquitto, ["-c", config], stderr: scratch.path("mosquitto.log"))
        let deadline = BenchClock.now() + 5_000_000_000
        while !Self.accepts(port) {
            guard process.isRunning, BenchClock.now() < deadline else {
                Subprocess.stop(process)
                throw BenchFailure("mosquitto did not start on port \(port); see \(scratch.path("mosquitto.log"))")
            }
            BenchClock.sleep(0.02)
        }
    }

    func stop() { Subprocess.stop(process) }

    /// mosquitto's process id (for its CPU time).
    var pid: Int32 { process.processIdentifier }

    /// Asks the kernel for an unused loopback port (bind to port 0, read it back, release it).
    static func freePort() throws(BenchFailure) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchFailure("socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p -> Bool in
                bind(fd, p, length) == 0 && getsockname(fd, p, &length) == 0
            }
        }
        guard bound else { throw BenchFailure("cannot bind a loopback port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
