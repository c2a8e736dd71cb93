import BeaconCore
import BeaconWire

/// The advertisement settings (command line or `advertise:`), mapped onto the HCI layer's type here,
/// so the HCI layer never sees the configuration model.
extension AdvertisingConfiguration {
    package init(settings: AdvertiseSettings, randomAddress: BluetoothAddress, alongsideScan: ScanConfiguration.Mode? = nil) {
        self.init(
            data: settings.advertisingData, interval: settings.interval, txPower: settings.txPower,
            ownAddress: settings.address, randomAddress: settings.address == .randomStatic ? randomAddress : nil,
            connectable: settings.connectable, alongsideScan: alongsideScan)
    }
}
