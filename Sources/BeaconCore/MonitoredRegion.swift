import BeaconWire
import Vocabulary

/// Runtime state of one configured region inside `BeaconMonitor`.
struct MonitoredRegion: Sendable {
    var state: RegionState = .unknown
    var since: Timestamp?
    /// Last sighting of any matching beacon.
    var lastSeen: Timestamp?
    /// That sighting: the beacon named by enter and exit events.
    var lastSighting: BeaconSighting?
    var exitTimeout: TimeSpan
    /// Whether a deadline entry is in the heap, and for when.
    var armed = false
    var armedDue: Int64 = 0
    var generation: UInt32 = 0
    var attributesDue: Timestamp?
    /// Size of the region's ranging list at the last tick.
    var beaconsInRange = 0
    /// Whether the last published ranging list was non-empty (so one empty list is still owed).
    var rangingNonEmpty = false

    init(exitTimeout: TimeSpan) { self.exitTimeout = exitTimeout }
}
