import BeaconWire

/// One beacon in range, as `beacon2mqtt scan` shows it. Built from the monitoring engine's tracked
/// beacon (see `ScanView`).
package struct ScanTableRow: Sendable, Equatable {
    package var identity: BeaconIdentity
    /// From the configuration's `beacons:` list.
    package var name: String?
    /// Last measured RSSI with the gateway offset, dBm; nil when the controller gave none.
    package var rssi: Double?
    package var filteredRSSI: Double?
    /// Metres.
    package var accuracy: Double?
    /// `immediate`, `near`, `far`, `unknown`.
    package var proximity: String?
    /// The latest Eddystone-TLM battery voltage attached to the beacon, mV.
    package var batteryMillivolts: UInt16?
    package var seenPerSecond: Double
    package var lastSeen: Timestamp

    package init(
        identity: BeaconIdentity, name: String? = nil, rssi: Double?, filteredRSSI: Double? = nil, accuracy: Double? = nil,
        proximity: String? = nil, batteryMillivolts: UInt16? = nil, seenPerSecond: Double, lastSeen: Timestamp
    ) {
        self.batteryMillivolts = batteryMillivolts
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
    package var primaryID: String {
        identity.scheme == .uuid ? identity.id.uuidString : identity.eddystoneNamespace
    }

    /// `major/minor`, or the Eddystone instance.
    package var secondaryID: String {
        identity.scheme == .uuid ? "\(identity.major)/\(identity.minor)" : identity.eddystoneInstance
    }
}
