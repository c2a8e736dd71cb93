import AgentCore
import BeaconCore
import BeaconWire
import HCITransport
import Settings

/// The configuration's `scanner:` section, mapped onto the HCI layer's types here, so the HCI layer
/// never sees the configuration model.
extension ScanConfiguration {
    /// The scan set-up `scanner:` in the configuration asks for.
    package init(scanner: ScannerSettings) {
        let mode: Mode
        switch scanner.mode {
        case .active: mode = .active
        case .passive: mode = .passive
        case .listen: mode = .listen
        }
        self.init(mode: mode, interval: scanner.interval, window: scanner.window, watchdog: scanner.watchdog)
    }
}

extension HCISource {
    /// The live adapter as the configuration's `scanner:` section describes it (what `run` uses);
    /// nil when `scanner.adapter` is not `hciN`, an address or `auto`.
    package convenience init?(
        scanner: ScannerSettings, advertise: AdvertiseSettings? = nil, options: Options = Options(),
        log: @escaping Log = { _, _ in }
    ) {
        guard let selection = HCIAdapterSelection(scanner.adapter) else { return nil }
        var options = options
        options.readPacing = ReadPacing.Policy(readInterval: scanner.readInterval)
        self.init(
            adapter: selection, configuration: ScanConfiguration(scanner: scanner),
            advertising: AdvertisingConfiguration(advertise), options: options, log: log)
    }
}
