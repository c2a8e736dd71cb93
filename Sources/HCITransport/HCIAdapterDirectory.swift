import BeaconWire
import CBlueZ
import Glibc
import Platform

/// The kernel's list of Bluetooth controllers, through the HCI device ioctls.
package enum HCIAdapterDirectory {
    /// Every controller, in index order.
    /// - Throws: `HCIError` (`.noBluetoothSupport` on a kernel without AF_BLUETOOTH).
    package static func list() throws(HCIError) -> [HCIAdapter] {
        let fd = try HCISocket.openRawSocket()
        defer { _ = Glibc.close(fd) }
        var ids = [UInt16](repeating: 0, count: Int(HCI_MAX_DEV))
        let count = try Syscall.retrying({ cbluez_device_list(fd, &ids, Int32(ids.count)) }) {
            HCIError(errno: $0, operation: "ioctl(HCIGETDEVLIST)")
        }
        var adapters: [HCIAdapter] = []
        for id in ids.prefix(Int(count)) {
            var info = hci_dev_info()
            // An adapter unplugged between the two calls is simply skipped.
            guard cbluez_device_info(fd, id, &info) == 0 else { continue }
            let address = withUnsafeBytes(of: info.bdaddr) { BluetoothAddress(littleEndianBytes: $0) }
            adapters.append(HCIAdapter(index: id, address: address, isUp: cbluez_device_is_up(&info) != 0))
        }
        return adapters.sorted { $0.index < $1.index }
    }

    /// Powers controller `index` on (HCIDEVUP; needs CAP_NET_ADMIN). Already up is success.
    package static func bringUp(_ index: UInt16) throws(HCIError) {
        let fd = try HCISocket.openRawSocket()
        defer { _ = Glibc.close(fd) }
        do throws(HCIError) {
            _ = try Syscall.retrying({ cbluez_device_up(fd, index) }) {
                HCIError(errno: $0, operation: "ioctl(HCIDEVUP) on hci\(index)")
            }
        } catch  where error.errno == EALREADY {
            return
        }
    }

    /// The adapter `selection` names right now.
    /// - Throws: `.noSuchAdapter` listing what was found, or the listing's own error.
    package static func resolve(_ selection: HCIAdapterSelection) throws(HCIError) -> HCIAdapter {
        let adapters = try list()
        guard let adapter = selection.pick(from: adapters) else {
            let found = adapters.map { "\($0.name) \($0.address)" }.joined(separator: ", ")
            throw HCIError(
                kind: .noSuchAdapter, operation: "'\(selection)'",
                detail: adapters.isEmpty ? "no adapters found" : "found: " + found)
        }
        return adapter
    }

    /// Finds the adapter `selection` names, powers it on when needed, and opens its socket.
    package static func open(_ selection: HCIAdapterSelection) throws(HCIError) -> HCISocket {
        let adapter = try resolve(selection)
        if !adapter.isUp {
            do {
                try bringUp(adapter.index)
            } catch  where error.kind == .permissionDenied {
                // Not fatal: bluetoothd (or the operator) may power it on; wait for that.
                throw HCIError(
                    kind: .adapterDown, operation: "\(adapter.name) is down and powering it on needs CAP_NET_ADMIN")
            }
        }
        return try HCISocket(deviceID: adapter.index)
    }
}
