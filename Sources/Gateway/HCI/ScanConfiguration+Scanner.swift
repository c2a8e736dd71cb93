import BeaconCore
import BeaconWire

extension ScanConfiguration {
    /// The scan set-up `scanner:` in the configuration asks for.
    public init(scanner: ScannerSettings) {
        let mode: Mode
        switch scanner.mode {
        case .active: mode = .active
        case .passive: mode = .passive
        case .listen: mode = .listen
        }
        self.init(mode: mode, interval: scanner.interval, window: scanner.window, watchdog: scanner.watchdog)
    }
}
