import Vocabulary

/// `scanner:`: which adapter scans, and how.
package struct ScannerSettings: Sendable, Equatable {
    package enum Mode: String, Sendable, Equatable, CaseIterable { case active, passive, listen }
    /// `hci0`, a controller address `aa:bb:cc:dd:ee:ff`, or `auto`.
    package var adapter: String = "auto"
    package var mode: Mode = .passive
    /// LE scan interval and window; window == interval means continuous scanning.
    package var interval: TimeSpan = .milliseconds(100)
    package var window: TimeSpan = .milliseconds(100)
    /// No report for this long while scanning triggers a re-enable, then an HCI reset.
    package var watchdog: TimeSpan = .seconds(30)
    /// Least time between two reads of the adapter's socket once a read emptied it; zero reads each
    /// report as it arrives; nil (`adaptive`, the default) holds while busy and reads at once while quiet.
    package var readInterval: TimeSpan?
    package init() {}
}
