import BeaconWire

/// Monotonic counters of a `BeaconMonitor`, for the stats message and the bench.
package struct MonitorCounters: Sendable, Equatable {
    /// Sightings passed to `observe`.
    package var sightings = 0
    /// Sightings of beacons that match no configured region (only counted when regions exist).
    package var ignored = 0
    /// Beacons currently in the tracking table.
    package var tracked = 0
    /// Beacons dropped from the full table, least recently seen first.
    package var evicted = 0
    /// Enter / exit events emitted (region and per-beacon; gated ones are not counted).
    package var enterEvents = 0
    package var exitEvents = 0

    package init() {}
}
