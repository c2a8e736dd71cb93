import BeaconWire
import Vocabulary

/// Everything `BeaconMonitor` keeps about one tracked beacon identity: a row of `BeaconTable`.
///
/// Flat on purpose, the one type allowed over 15 stored properties (`StoredPropertyLimitTests`):
/// the table holds a row per tracked identity (thousands, up to its capacity) in one array, and a
/// report reads and writes across the groups below in the one row it touches, so the groups stay
/// comments rather than types of their own.
struct BeaconSlot: Sendable {
    var identity: BeaconIdentity
    var kind: BeaconSighting.Kind
    var address: BluetoothAddress
    /// Last raw RSSI (127 = not available); the gateway offset is applied when printed.
    var rssi: Int8
    var frameMeasuredPower: Int8?
    var firstSeen: Timestamp
    var lastSeen: Timestamp
    var seenCount: Int = 0

    // Table bookkeeping: LRU links (head = most recently seen) and the eviction generation.
    var prev: Int32 = -1
    var next: Int32 = -1
    var generation: UInt32 = 0
    var inUse = true

    // Derived from the configuration (recomputed on reconfigure).
    /// RegionIndex match list of this identity (`RegionIndex.none` when it matches no region).
    var matchList: Int32
    /// Index into MonitorSettings.beacons, −1 when none.
    var override: Int32
    var exitTimeout: TimeSpan

    // Per-beacon monitoring (monitoring.per_beacon).
    var state: RegionState = .unknown
    var since: Timestamp?
    var exitArmed = false
    var attributesDue: Timestamp

    // RSSI samples: `ringCount` valid entries ending just before `ringHead` in BeaconTable's ring.
    var ringHead: UInt8 = 0
    var ringCount: UInt8 = 0
    var kalman: KalmanFilter

    // Ranging results of the last tick, and what was last published.
    var filteredRSSI: Double?
    var accuracy: Double = -1
    var proximity: Proximity = .unknown
    var measuredPower: Int
    var publishedAccuracy: Double = -1
    /// The filtered RSSI last published (nan: none); a Float keeps the slot small, and a filtered
    /// RSSI (a median or mean of whole dBm, plus the offset) loses nothing that a dB deadband reads.
    var publishedRSSI: Float = .nan
    var publishedProximity: Proximity = .unknown
    var publishedAt: Timestamp?
}
