import BeaconWire

/// One row of the `scan` table: what the monitor currently knows about a tracked beacon.
/// Filtered RSSI, accuracy and proximity are as of the last ranging tick.
public struct TrackedBeacon: Sendable, Equatable {
    public var identity: BeaconIdentity
    public var kind: BeaconSighting.Kind
    public var name: String?
    public var address: BluetoothAddress
    /// Last RSSI with the gateway offset; nil when not available.
    public var rssi: Double?
    public var filteredRSSI: Double?
    public var measuredPower: Int
    /// Metres; −1 when unknown.
    public var accuracy: Double
    public var proximity: Proximity
    /// Per-beacon monitoring state (`unknown` when monitoring.per_beacon is off).
    public var state: RegionState
    public var seenCount: Int
    public var firstSeen: Timestamp
    public var lastSeen: Timestamp
}
