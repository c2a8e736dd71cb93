import BeaconWire
import Glibc
import Platform

/// Packet I/O on a datagram-style file descriptor (a raw HCI socket, or a SOCK_SEQPACKET socketpair
/// in tests): one `write` per packet, `poll` + one `read` per packet. It owns and closes the fd.
package final class HCIDescriptor: HCITransport {
    package let fileDescriptor: Int32
    /// Used in error messages (`read hci0`).
    package let label: String
    private var isOpen = true
    private var buffer = [UInt8](repeating: 0, count: 2048)

    package init(fileDescriptor: Int32, label: String) {
        self.fileDescriptor = fileDescriptor
        self.label = label
    }

    deinit { close() }

    package func send(_ packet: [UInt8]) throws(HCIError) {
        guard isOpen else { throw HCIError(kind: .adapterGone, operation: "write \(label)", errno: EBADF) }
        // One write per packet: a short write would split it, so it is an I/O error, not retried.
        let n = try Syscall.retrying({ packet.withUnsafeBytes { Glibc.write(fileDescriptor, $0.baseAddress, $0.count) } }) {
            HCIError(errno: $0, operation: "write \(label)")
        }
        guard n == packet.count else { throw HCIError(errno: EIO, operation: "write \(label)") }
    }

    package func receive(
        timeout: TimeSpan, unlessStopped stop: StopSignal?, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(HCIError) -> Bool {
        guard isOpen else { throw HCIError(kind: .adapterGone, operation: "read \(label)", errno: EBADF) }
        let failure = { [label] (code: Int32) in HCIError(errno: code, operation: "poll \(label)") }
        let wait = Duration.microseconds(timeout.microseconds)
        let events =
            if let stop { try stop.poll(fileDescriptor, timeout: wait, failure: failure) }
            else { try Syscall.poll(fileDescriptor, timeout: wait, failure: failure) }
        if events == 0 { return false }
        // POLLERR/POLLHUP fall through to read, which reports the socket's pending error (or EOF).
        let n: Int
        do throws(HCIError) {
            n = try Syscall.retrying({ buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) } }) {
                HCIError(errno: $0, operation: "read \(label)")
            }
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return false
        }
        if n == 0 { throw HCIError(kind: .adapterGone, operation: "read \(label): end of stream") }
        buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        return true
    }

    package func close() {
        guard isOpen else { return }
        isOpen = false
        _ = Glibc.close(fileDescriptor)
    }
}
