import BeaconWire

/// What ranging knows about one beacon at a tick (CoreLocation's `CLBeacon`).
///
/// Field order packs the small fields into the identity's tail padding: a tick emits one event per
/// ranged beacon, and every byte is copied into and out of the event buffer.
public struct RangedBeacon: Sendable, Equatable {
    public var identity: BeaconIdentity
    /// The last raw RSSI (127 = not available); the gateway offset is not applied.
    public var rssi: Int8
    public var proximity: Proximity
    /// The monitor's table slot and its generation: the same pair means the same tracked beacon,
    /// so a consumer may cache what it derives from the identity (`RangedIdentityText`).
    package var slot: Int32
    package var generation: UInt32
    public var name: String?
    public var address: BluetoothAddress
    public var measuredPower: Int
    /// Metres; < 0 when unknown.
    public var accuracy: Double
    public var lastSeen: Timestamp
    /// The filtered RSSI, gateway offset included; nil without usable samples.
    public var filteredRSSI: Double?

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
