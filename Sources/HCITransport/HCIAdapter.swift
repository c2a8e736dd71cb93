import BeaconWire

/// One Bluetooth controller as the kernel lists it (HCIGETDEVLIST / HCIGETDEVINFO).
package struct HCIAdapter: Sendable, Equatable {
    /// The N of `hciN`; it can change after a USB reset, the address does not.
    package var index: UInt16
    package var address: BluetoothAddress
    package var isUp: Bool

    package init(index: UInt16, address: BluetoothAddress, isUp: Bool) {
        self.index = index
        self.address = address
        self.isUp = isUp
    }

    package var name: String { "hci\(index)" }
}
