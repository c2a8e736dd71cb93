/// What the gateway does with its Bluetooth adapter: how it scans (`scanner:`) and what it
/// advertises meanwhile (`advertise:`). The live source and the advertising announcement take both.
package struct BluetoothSettings: Sendable, Equatable {
    package var scanner = ScannerSettings()
    /// What the gateway advertises while it scans; nil: nothing (the default).
    package var advertise: AdvertiseSettings?

    package init(scanner: ScannerSettings = ScannerSettings(), advertise: AdvertiseSettings? = nil) {
        self.scanner = scanner
        self.advertise = advertise
    }
}
