import BeaconWire
import CBlueZ
import Glibc
import Platform
import Vocabulary

/// A raw HCI socket bound to one controller, with the scanner's event filter set.
///
/// `socket(AF_BLUETOOTH, SOCK_RAW|SOCK_CLOEXEC, BTPROTO_HCI)` on HCI_CHANNEL_RAW: the kernel and
/// bluetoothd keep driving the adapter, and this socket sees a copy of its traffic. The previous
/// HCI_FILTER is saved at open and restored on close.
package final class HCISocket: HCITransport {
    package let deviceID: UInt16
    private let descriptor: HCIDescriptor
    private var savedFilter: hci_filter
    private var isOpen = true

    /// Opens and binds the socket for controller `hci<deviceID>` and sets `filter`.
    package init(deviceID: UInt16, filter: HCIEventFilter = .scanner) throws(HCIError) {
        let label = "hci\(deviceID)"
        let fd = try Self.openRawSocket()
        var old = hci_filter()
        var new = Self.cFilter(filter)
        do throws(HCIError) {
            _ = try Syscall.once({ cbluez_bind_raw(fd, deviceID) }) { HCIError(errno: $0, operation: "bind \(label)") }
            _ = try Syscall.once({ cbluez_get_filter(fd, &old) }) {
                HCIError(errno: $0, operation: "getsockopt(HCI_FILTER) on \(label)")
            }
            _ = try Syscall.once({ cbluez_set_filter(fd, &new) }) {
                HCIError(errno: $0, operation: "setsockopt(HCI_FILTER) on \(label)")
            }
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
        // Without CAP_NET_RAW the kernel silently narrows the filter to its security filter, which
        // drops LE Meta: the scan would just stay silent. Read it back and say so instead.
        var applied = hci_filter()
        if cbluez_get_filter(fd, &applied) == 0,
            applied.type_mask != new.type_mask || applied.event_mask != new.event_mask
        {
            _ = Glibc.close(fd)
            throw HCIError(
                kind: .permissionDenied, operation: "setsockopt(HCI_FILTER) on \(label): LE events filtered out",
                errno: EPERM)
        }
        self.deviceID = deviceID
        self.savedFilter = old
        self.descriptor = HCIDescriptor(fileDescriptor: fd, label: label)
    }

    deinit { close() }

    /// An unbound raw HCI socket, for the device ioctls (and, bound, for traffic).
    static func openRawSocket() throws(HCIError) -> Int32 {
        try Syscall.once({ socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI) })
        {
            HCIError(errno: $0, operation: "socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI)")
        }
    }

    /// The C layout of `filter`.
    static func cFilter(_ filter: HCIEventFilter) -> hci_filter {
        var c = hci_filter()
        c.type_mask = filter.typeMask
        c.event_mask = filter.eventMaskWords
        c.opcode = filter.opcode
        return c
    }

    package func send(_ packet: [UInt8]) throws(HCIError) { try descriptor.send(packet) }

    package func receive(
        timeout: TimeSpan, unlessStopped stop: StopSignal?, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(HCIError) -> Bool {
        try descriptor.receive(timeout: timeout, unlessStopped: stop, body)
    }

    /// HCI_TIME_STAMP: the raw channel carries the time as its own control message (HCI_CMSG_TSTAMP),
    /// not SO_TIMESTAMP's.
    package func holdPackets(for interval: TimeSpan) -> Bool {
        guard isOpen else { return false }
        descriptor.growReceiveBuffer(holding: interval)
        guard cbluez_enable_timestamps(descriptor.fileDescriptor) == 0 else { return false }
        descriptor.expectReceiveTimes(level: SOL_HCI, type: HCI_CMSG_TSTAMP)
        return true
    }

    package var receivedAt: Timestamp? { descriptor.receivedAt }

    package func close() {
        guard isOpen else { return }
        isOpen = false
        _ = cbluez_set_filter(descriptor.fileDescriptor, &savedFilter)
        descriptor.close()
    }
}
