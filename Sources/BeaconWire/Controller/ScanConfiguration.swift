/// How the scanner drives the controller: the mode, LE scan timing and the fault timers.
import Vocabulary

public struct ScanConfiguration: Sendable, Equatable {
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// Sends SCAN_REQ, so scan responses (which some beacons put their frames in) arrive too.
        case active
        /// Only listens to advertising PDUs: no radio transmissions from the gateway.
        case passive
        /// Sends no command at all and reads the events another scanner (bluetoothd) causes.
        case listen
    }

    public var mode: Mode
    /// LE scan interval and window; window == interval scans continuously.
    public var interval: TimeSpan
    public var window: TimeSpan
    /// Extended scanning only: also scan the LE Coded PHY (long range). Each PHY then gets its own
    /// window, so the 1M PHY sees fewer legacy beacons; off by default.
    public var scanCodedPHY: Bool
    /// How long a command may wait for its Command Complete/Status.
    public var commandTimeout: TimeSpan
    /// No advertising report for this long while scanning → re-enable; again → HCI Reset. Zero disables it.
    public var watchdog: TimeSpan

    public init(
        mode: Mode = .passive, interval: TimeSpan = .milliseconds(100), window: TimeSpan = .milliseconds(100),
        scanCodedPHY: Bool = false, commandTimeout: TimeSpan = .seconds(2), watchdog: TimeSpan = .seconds(30)
    ) {
        self.mode = mode
        self.interval = interval
        self.window = window
        self.scanCodedPHY = scanCodedPHY
        self.commandTimeout = commandTimeout
        self.watchdog = watchdog
    }

    /// Interval and window in 0.625 ms units, clamped to what the command set accepts
    /// (legacy 0x0004…0x4000, §7.8.10; extended 0x0004…0xFFFF, §7.8.64), window ≤ interval.
    public func timingUnits(extended: Bool) -> (interval: UInt16, window: UInt16) {
        let upper: Int64 = extended ? 0xFFFF : 0x4000
        func units(_ span: TimeSpan) -> UInt16 { UInt16(min(max(span.microseconds / 625, 4), upper)) }
        let interval = units(interval)
        return (interval, min(units(window), interval))
    }

    /// The parameter command for one command set.
    public func parametersCommand(extended: Bool, includeCoded: Bool) -> HCICommand {
        let timing = timingUnits(extended: extended)
        let active = mode == .active
        guard extended else {
            return .leSetScanParameters(active: active, interval: timing.interval, window: timing.window)
        }
        let block = HCICommand.PHYScanParameters(active: active, interval: timing.interval, window: timing.window)
        return .leSetExtendedScanParameters(le1M: block, leCoded: includeCoded ? block : nil)
    }

    /// The enable/disable command for one command set; duplicate filtering is always off so RSSI keeps flowing.
    public static func enableCommand(_ enable: Bool, extended: Bool) -> HCICommand {
        extended
            ? .leSetExtendedScanEnable(enable, filterDuplicates: false)
            : .leSetScanEnable(enable, filterDuplicates: false)
    }
}
