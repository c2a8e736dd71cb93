import BeaconWire
import CBlueZ
import Glibc
import Platform
import Vocabulary

/// Packet I/O on a datagram-style file descriptor (a raw HCI socket, or a SOCK_SEQPACKET socketpair
/// in tests): one `write` per packet, `poll` + one `read` per packet (`recvmsg` once receive times
/// are asked for, `holdPackets`). It owns and closes the fd.
package final class HCIDescriptor: HCITransport {
    package let fileDescriptor: Int32
    /// Used in error messages (`read hci0`).
    package let label: String
    private var isOpen = true
    private var buffer = [UInt8](repeating: 0, count: 2048)
    /// The control message that carries a packet's receive time, once asked for (`holdPackets`).
    private var stampMessage: (level: Int32, type: Int32)?
    package private(set) var receivedAt: Timestamp?

    package init(fileDescriptor: Int32, label: String) {
        self.fileDescriptor = fileDescriptor
        self.label = label
    }

    deinit { close() }

    package func send(_ packet: [UInt8]) throws(HCIError) {
        guard isOpen else { throw HCIError(kind: .adapterGone, operation: "write \(label)", errno: EBADF) }
        // One write per packet: a short write would split it, so it is an I/O error, not retried.
        let n = try Syscall.retrying({
            packet.withUnsafeBytes { Glibc.write(fileDescriptor, $0.baseAddress, $0.count) }
        }) {
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
            if let stop { try stop.poll(fileDescriptor, timeout: wait, failure: failure) } else {
                try Syscall.poll(fileDescriptor, timeout: wait, failure: failure)
            }
        if events == 0 { return false }
        // POLLERR/POLLHUP fall through to read, which reports the socket's pending error (or EOF).
        let n: Int
        do throws(HCIError) {
            n = try Syscall.retrying({ buffer.withUnsafeMutableBytes { read(into: $0) } }) {
                HCIError(errno: $0, operation: "read \(label)")
            }
        } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return false
        }
        if n == 0 { throw HCIError(kind: .adapterGone, operation: "read \(label): end of stream") }
        buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        return true
    }

    /// One packet into `raw`: `read`, or with its receive time (`receivedAt`) once that is recorded.
    private func read(into raw: UnsafeMutableRawBufferPointer) -> Int {
        guard let (level, type) = stampMessage else { return Glibc.read(fileDescriptor, raw.baseAddress, raw.count) }
        var usec: Int64 = -1
        let n = cbluez_read_stamped(fileDescriptor, raw.baseAddress, raw.count, level, type, &usec)
        receivedAt = usec >= 0 ? Timestamp(microseconds: usec) : nil
        return n
    }

    /// SO_TIMESTAMP, the receive time any socket can attach (the tests' socketpair); an HCI socket has
    /// its own (`HCISocket`).
    package func holdPackets(for interval: TimeSpan) -> Bool {
        growReceiveBuffer(holding: interval)
        guard setOption(SOL_SOCKET, cbluez_SO_TIMESTAMP, 1) else { return false }
        expectReceiveTimes(level: SOL_SOCKET, type: cbluez_SCM_TIMESTAMP)
        return true
    }

    /// Reads each packet's receive time from the (`level`, `type`) control message from now on.
    package func expectReceiveTimes(level: Int32, type: Int32) { stampMessage = (level, type) }

    /// SO_RCVBUFFORCE (with CAP_NET_ADMIN, past net.core.rmem_max), else SO_RCVBUF (up to it), and
    /// never smaller than the buffer already is.
    package func growReceiveBuffer(holding interval: TimeSpan) {
        let wanted = Self.receiveBufferBytes(holding: interval)
        var current: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        // The kernel reports the doubled value it keeps.
        if getsockopt(fileDescriptor, SOL_SOCKET, SO_RCVBUF, &current, &length) == 0, current / 2 >= wanted { return }
        if !setOption(SOL_SOCKET, SO_RCVBUFFORCE, wanted) { _ = setOption(SOL_SOCKET, SO_RCVBUF, wanted) }
    }

    /// setsockopt of one int; false when refused.
    package func setOption(_ level: Int32, _ name: Int32, _ value: Int32) -> Bool {
        var v = value
        return setsockopt(fileDescriptor, level, name, &v, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    package func close() {
        guard isOpen else { return }
        isOpen = false
        _ = Glibc.close(fileDescriptor)
    }
}
