import BeaconCore
import BeaconWire
import Settings

/// The advertisement settings (command line or `advertise:`), mapped onto the HCI layer's type here,
/// so the HCI layer never sees the configuration model.
extension AdvertisingConfiguration {
    package init(
        settings: AdvertiseSettings, randomAddress: BluetoothAddress, alongsideScan: ScanConfiguration.Mode? = nil
    ) {
        self.init(
            data: settings.advertisingData, interval: settings.interval, txPower: settings.txPower,
            ownAddress: settings.address, randomAddress: settings.address == .randomStatic ? randomAddress : nil,
            connectable: settings.connectable, alongsideScan: alongsideScan)
    }
}

extension AdvertisingConfiguration {
    /// What `advertise:` asks for beside the scan (nil: nothing), with a random static address drawn
    /// once per process so a reload keeps it.
    package init?(_ settings: AdvertiseSettings?) {
        guard let settings else { return nil }
        self.init(settings: settings, randomAddress: Self.processRandomAddress)
    }

    /// 46 random bits under the two set bits of a random static address (Core Spec Vol 6, Part B, §1.3.2.1).
    package static let processRandomAddress: BluetoothAddress = {
        var system = SystemRandomNumberGenerator()
        return randomStaticAddress(fromRandomBits: system.next() & 0xFFFF_FFFF_FFFF)
    }()
}
