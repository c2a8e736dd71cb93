import Foundation
import Synchronization

@testable import SystemdTransport

/// A bound AF_UNIX SOCK_DGRAM socket standing in for systemd's notification socket.
final class NotifySocket {
    let fd: Int32
    let path: String

    /// Serializes the tests that point the process-wide `NOTIFY_SOCKET` at their own socket.
    static let environmentLock = Mutex(())

    init() throws {
        path = NSTemporaryDirectory() + "b2m-notify-\(UUID().uuidString.prefix(8)).sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // A bound on the wait, so a missing datagram fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Runs `body` with `NOTIFY_SOCKET` pointing at a fresh socket.
    static func with(_ body: (NotifySocket, SystemdNotifier) throws -> Void) throws {
        try environmentLock.withLock { _ in
            let socket = try NotifySocket()
            setenv("NOTIFY_SOCKET", socket.path, 1)
            defer { unsetenv("NOTIFY_SOCKET") }
            try body(socket, SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path]))
        }
    }

    /// The next datagram, waiting up to the receive timeout.
    func receive() -> String? { read(flags: 0) }

    /// A datagram already queued, or nil without waiting.
    func receiveNow() -> String? { read(flags: Int32(MSG_DONTWAIT)) }

    private func read(flags: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, flags)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }
}
