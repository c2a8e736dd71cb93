import BeaconWire
import Glibc

/// Packet I/O on a datagram-style file descriptor (a raw HCI socket, or a SOCK_SEQPACKET socketpair
/// in tests): one `write` per packet, `poll` + one `read` per packet. It owns and closes the fd.
public final class HCIDescriptor: HCITransport {
    public let fileDescriptor: Int32
    /// Used in error messages (`read hci0`).
    public let label: String
    private var isOpen = true
    private var buffer = [UInt8](repeating: 0, count: 2048)

    public init(fileDescriptor: Int32, label: String) {
        self.fileDescriptor = fileDescriptor
        self.label = label
    }

    deinit { close() }

    public func send(_ packet: [UInt8]) throws(HCIError) {
        guard isOpen else { throw HCIError(kind: .adapterGone, operation: "write \(label)", errno: EBADF) }
        while true {
            let n = packet.withUnsafeBytes { Glibc.write(fileDescriptor, $0.baseAddress, $0.count) }
            if n == packet.count { return }
            if n < 0, errno == EINTR { continue }
            throw HCIError(errno: n < 0 ? errno : EIO, operation: "write \(label)")
        }
    }

    public func receive(timeout: TimeSpan) throws(HCIError) -> [UInt8]? {
        guard isOpen else { throw HCIError(kind: .adapterGone, operation: "read \(label)", errno: EBADF) }
        var fds = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: max(0, (timeout.microseconds + 999) / 1000))
        let ready = poll(&fds, 1, milliseconds)
        if ready == 0 { return nil }
        if ready < 0 {
            if errno == EINTR { return nil }
            throw HCIError(errno: errno, operation: "poll \(label)")
        }
        // POLLERR/POLLHUP fall through to read, which reports the socket's pending error (or EOF).
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if n > 0 { return Array(buffer[0..<n]) }
            if n == 0 { throw HCIError(kind: .adapterGone, operation: "read \(label): end of stream") }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            throw HCIError(errno: errno, operation: "read \(label)")
        }
    }

    public func close() {
        guard isOpen else { return }
        isOpen = false
        _ = Glibc.close(fileDescriptor)
    }
}
