import BeaconWire

/// One Bluetooth controller as the kernel lists it (HCIGETDEVLIST / HCIGETDEVINFO).
public struct HCIAdapter: Sendable, Equatable {
    /// The N of `hciN`; it can change after a USB reset, the address does not.
    public var index: UInt16
    public var address: BluetoothAddress
    public var isUp: Bool

    public init(index: UInt16, address: BluetoothAddress, isUp: Bool) {
        self.index = index
        self.address = address
        self.isUp = isUp
    }

    public var name: String { "hci\(index)" }
}
