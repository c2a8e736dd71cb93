import BeaconWire

/// Monotonic counters of a `BeaconMonitor`, for the stats message and the bench.
public struct MonitorCounters: Sendable, Equatable {
    /// Sightings passed to `observe`.
    public var sightings = 0
    /// Sightings of beacons that match no configured region (only counted when regions exist).
    public var ignored = 0
    /// Beacons currently in the tracking table.
    public var tracked = 0
    /// Beacons dropped from the full table, least recently seen first.
    public var evicted = 0
    /// Enter / exit events emitted (region and per-beacon; gated ones are not counted).
    public var enterEvents = 0
    public var exitEvents = 0
    /// Messages the events make, by kind: retained state and attributes (two per state), events,
    /// proximity, ranging lists. Home Assistant's room feed is not counted.
    public var stateMessages = 0
    public var eventMessages = 0
    public var proximityMessages = 0
    public var rangingMessages = 0

    public init() {}
}
