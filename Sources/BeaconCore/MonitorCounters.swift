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
    /// Enter / exit event messages emitted (region and per-beacon; gated ones are not counted).
    public var enterEvents = 0
    public var exitEvents = 0
    /// Messages emitted, by kind: retained state and attributes, events, proximity, ranging lists.
    public var stateMessages = 0
    public var eventMessages = 0
    public var proximityMessages = 0
    public var rangingMessages = 0

    public init() {}

    mutating func count(_ m: OutboundMessage) {
        switch m.kind {
        case .state: stateMessages += 1
        case .event: eventMessages += 1
        case .proximity: proximityMessages += 1
        case .ranging: rangingMessages += 1
        case .status, .stats, .location, .discovery: break
        }
    }
}
