import Glibc

/// A failure at the HCI socket layer, worded for the operator who has to fix it.
///
/// `isFatal` errors (no Bluetooth in the kernel, missing privilege) end the command with exit 69;
/// the others mean the adapter is absent or went away, and the source backs off and reopens it.
package struct HCIError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// EAFNOSUPPORT: the kernel has no AF_BLUETOOTH.
        case noBluetoothSupport
        /// EPERM/EACCES: missing CAP_NET_RAW / CAP_NET_ADMIN.
        case permissionDenied
        /// ERFKILL: the radio is blocked.
        case rfkillBlocked
        /// ENETDOWN: the adapter exists but is powered off.
        case adapterDown
        /// ENODEV, EPIPE, EBADFD, end of stream …: the adapter was unplugged or unregistered.
        case adapterGone
        /// No adapter matches the configured `scanner.adapter`.
        case noSuchAdapter
        /// The controller rejected a command the procedure cannot do without.
        case rejected
        /// Anything else.
        case system
    }

    package var kind: Kind
    /// What was being done: `socket(AF_BLUETOOTH)`, `read hci0`, …
    package var operation: String
    package var errno: Int32
    /// Extra context (e.g. the adapters that were found).
    package var detail: String?

    package init(kind: Kind, operation: String, errno: Int32 = 0, detail: String? = nil) {
        self.kind = kind
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    /// Classifies `code` from a failed system call.
    package init(errno code: Int32, operation: String) {
        let kind: Kind
        switch code {
        case EAFNOSUPPORT, EPROTONOSUPPORT: kind = .noBluetoothSupport
        case EPERM, EACCES: kind = .permissionDenied
        case ERFKILL: kind = .rfkillBlocked
        case ENETDOWN: kind = .adapterDown
        case ENODEV, ENXIO, EPIPE, EBADFD, EIO, ECONNRESET, EBADF: kind = .adapterGone
        default: kind = .system
        }
        self.init(kind: kind, operation: operation, errno: code)
    }

    package var isFatal: Bool { kind == .noBluetoothSupport || kind == .permissionDenied }

    private var cause: String {
        errno == 0 ? operation : "\(operation): \(String(cString: strerror(errno)))"
    }

    package var description: String {
        switch kind {
        case .noBluetoothSupport:
            return """
                this kernel has no Bluetooth support (\(cause)). Load it with 'modprobe bluetooth' \
                (and the adapter's driver, e.g. btusb), or run on a kernel built with CONFIG_BT.
                """
        case .permissionDenied:
            return """
                permission denied (\(cause)). Raw HCI access needs CAP_NET_RAW, and bringing an adapter \
                up needs CAP_NET_ADMIN. Run as root, or grant them; under systemd, in the [Service] section:
                  AmbientCapabilities=CAP_NET_RAW CAP_NET_ADMIN
                  CapabilityBoundingSet=CAP_NET_RAW CAP_NET_ADMIN
                For a one-off run: sudo setcap cap_net_raw,cap_net_admin+eip "$(command -v beacon2mqtt)"
                """
        case .rfkillBlocked:
            return "the Bluetooth radio is blocked by rfkill (\(cause)). Unblock it: 'rfkill unblock bluetooth'."
        case .adapterDown:
            return "the adapter is powered off (\(cause)). Power it on: 'bluetoothctl power on' or 'hciconfig hci0 up'."
        case .adapterGone:
            return "the adapter went away (\(cause))"
        case .noSuchAdapter:
            return "no Bluetooth adapter matches \(operation)" + (detail.map { " (\($0))" } ?? "")
        case .rejected:
            return "the controller refused: \(operation)"
        case .system:
            return cause
        }
    }
}
