/// Where `BeaconMonitor` keeps a tracked beacon: its row in the tracking table, and the row's
/// generation (bumped each time the row is freed, so a slot names one beacon's stay in the table).
/// Companions of the monitor index their own per-beacon rows by it (`TelemetryTracker`), so the
/// per-report path hashes the identity once, in the monitor.
package struct MonitorSlot: Sendable, Equatable {
    package var index: Int32
    package var generation: UInt32

    package init(index: Int32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
}
