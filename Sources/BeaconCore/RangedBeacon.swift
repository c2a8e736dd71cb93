import BeaconWire
import Vocabulary

/// What ranging knows about one beacon at a tick (CoreLocation's `CLBeacon`).
///
/// Field order packs the small fields into the identity's tail padding: a tick emits one event per
/// ranged beacon, and every byte is copied into and out of the event buffer.
package struct RangedBeacon: Sendable, Equatable {
    package var identity: BeaconIdentity
    /// The last raw RSSI (127 = not available); the gateway offset is not applied.
    package var rssi: Int8
    package var proximity: Proximity
    /// The monitor's table slot and its generation: the same pair means the same tracked beacon,
    /// so a consumer may cache what it derives from the identity (`RangedIdentityText`).
    package var slot: Int32
    package var generation: UInt32
    package var name: String?
    package var address: BluetoothAddress
    package var measuredPower: Int
    /// Metres; < 0 when unknown.
    package var accuracy: Double
    package var lastSeen: Timestamp
    /// The filtered RSSI, gateway offset included; nil without usable samples.
    package var filteredRSSI: Double?

    package init(
        identity: BeaconIdentity, name: String?, address: BluetoothAddress, rssi: Int8, filteredRSSI: Double?,
        measuredPower: Int, accuracy: Double, proximity: Proximity, lastSeen: Timestamp, slot: Int32 = -1,
        generation: UInt32 = 0
    ) {
        self.identity = identity
        self.name = name
        self.address = address
        self.rssi = rssi
        self.filteredRSSI = filteredRSSI
        self.measuredPower = measuredPower
        self.accuracy = accuracy
        self.proximity = proximity
        self.lastSeen = lastSeen
        self.slot = slot
        self.generation = generation
    }
}
