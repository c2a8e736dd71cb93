import AgentCore
import BeaconCore
import BeaconWire
import Platform
import Settings

/// The live adapter as a `PacketSource`: an `HCIControllerLoop` driving the scan, with advertising
/// beside it when asked for (`ScanWithAdvertising`; see the loop for the faults it survives). Only
/// missing Bluetooth support and missing privilege end `run` with an `HCIError`.
package final class HCISource: PacketSource {
    /// Opens the transport for the configured adapter; called again after every loss.
    package typealias Opener = HCIControllerLoop<ScanWithAdvertising>.Opener
    package typealias Log = HCIControllerLoop<ScanWithAdvertising>.Log
    package typealias Options = HCILoopOptions
    package typealias Clock = HCIClock

    package struct Statistics: Sendable, Equatable {
        package var scan = ScanController.Statistics()
        package var advertisingReportEvents = 0
        package var adapterLosses = 0
        package var reopens = 0
        /// Opens that failed while waiting for the adapter (absent, down, blocked).
        package var failedOpens = 0
        package init() {}
    }

    private let loop: HCIControllerLoop<ScanWithAdvertising>
    /// The configured scan mode, for `/metrics`.
    private let mode: ScanConfiguration.Mode

    package init(
        opener: @escaping Opener, configuration: ScanConfiguration, advertising: AdvertisingConfiguration? = nil,
        options: Options = Options(), clock: Clock = .system, log: @escaping Log = { _, _ in }
    ) {
        mode = configuration.mode
        loop = HCIControllerLoop(
            ScanWithAdvertising(scan: configuration, advertising: advertising), opener: opener, options: options,
            clock: clock, log: log)
    }

    /// The live adapter `selection`, resolved on every (re)open.
    package convenience init(
        adapter selection: HCIAdapterSelection, configuration: ScanConfiguration,
        advertising: AdvertisingConfiguration? = nil, options: Options = Options(), log: @escaping Log = { _, _ in }
    ) {
        self.init(
            opener: { () throws(HCIError) in try HCIAdapterDirectory.open(selection) }, configuration: configuration,
            advertising: advertising, options: options, log: log)
    }

    /// What is advertised beside the scan, as of the procedure's last action.
    package var advertiser: AdvertiseController? { loop.procedure.advertiser }

    /// Replaces what is advertised; nil stops advertising. The scan carries on.
    package func readvertise(_ advertising: AdvertisingConfiguration?) {
        loop.apply { procedure, now in procedure.readvertise(advertising, at: now) }
    }

    /// The agent's `advertise` action (a reload or a configuration layer changed `advertise:`).
    package func advertise(_ settings: AdvertiseSettings?) { readvertise(AdvertisingConfiguration(settings)) }

    package var statistics: Statistics {
        let counters = loop.counters
        var out = Statistics()
        out.scan = loop.procedure.scan.statistics
        out.advertisingReportEvents = counters.advertisingReportEvents
        out.adapterLosses = counters.adapterLosses
        out.reopens = counters.reopens
        out.failedOpens = counters.failedOpens
        return out
    }

    /// Reopens after a loss and the scan watchdog's HCI Resets; the configured scan mode.
    package var metrics: SourceMetrics {
        let s = statistics
        return SourceMetrics(resets: s.reopens + s.scan.watchdogResets, scanMode: mode.rawValue)
    }

    package func stop() { loop.stop() }

    package func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws { try loop.run(deliver) }
}
