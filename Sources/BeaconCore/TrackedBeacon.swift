import BeaconWire
import Vocabulary

/// One row of the `scan` table: what the monitor currently knows about a tracked beacon.
/// Filtered RSSI, accuracy and proximity are as of the last ranging tick.
package struct TrackedBeacon: Sendable, Equatable {
    package var identity: BeaconIdentity
    package var kind: BeaconSighting.Kind
    package var name: String?
    package var address: BluetoothAddress
    /// Last RSSI with the gateway offset; nil when not available.
    package var rssi: Double?
    package var filteredRSSI: Double?
    package var measuredPower: Int
    /// Metres; −1 when unknown.
    package var accuracy: Double
    package var proximity: Proximity
    /// Per-beacon monitoring state (`unknown` when monitoring.per_beacon is off).
    package var state: RegionState
    package var seenCount: Int
    package var firstSeen: Timestamp
    package var lastSeen: Timestamp
}
