import BeaconWire

/// One beacon in range, as `beacon2mqtt scan` shows it. Built from the monitoring engine's tracked
/// beacon (see `ScanView`).
public struct ScanTableRow: Sendable, Equatable {
    public var identity: BeaconIdentity
    /// From the configuration's `beacons:` list.
    public var name: String?
    /// Last measured RSSI with the gateway offset, dBm; nil when the controller gave none.
    public var rssi: Double?
    public var filteredRSSI: Double?
    /// Metres.
    public var accuracy: Double?
    /// `immediate`, `near`, `far`, `unknown`.
    public var proximity: String?
    public var seenPerSecond: Double
    public var lastSeen: Timestamp

    public init(
        identity: BeaconIdentity, name: String? = nil, rssi: Double?, filteredRSSI: Double? = nil, accuracy: Double? = nil,
        proximity: String? = nil, seenPerSecond: Double, lastSeen: Timestamp
    ) {
        self.identity = identity
        self.name = name
        self.rssi = rssi
        self.filteredRSSI = filteredRSSI
        self.accuracy = accuracy
        self.proximity = proximity
        self.seenPerSecond = seenPerSecond
        self.lastSeen = lastSeen
    }

    /// The proximity UUID or Eddystone namespace.
    public var primaryID: String {
        identity.scheme == .uuid ? identity.id.uuidString : identity.eddystoneNamespace
    }

    /// `major/minor`, or the Eddystone instance.
    public var secondaryID: String {
        identity.scheme == .uuid ? "\(identity.major)/\(identity.minor)" : identity.eddystoneInstance
    }
}
