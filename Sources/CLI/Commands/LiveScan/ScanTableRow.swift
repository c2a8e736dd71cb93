import BeaconCore
import BeaconWire
import Vocabulary

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
    /// How the row was identified (a device's `irk` or `address`), and the address it advertised from last.
    package var kind: BeaconSighting.Kind?
    package var address: BluetoothAddress?

    package init(
        identity: BeaconIdentity, name: String? = nil, rssi: Double?, filteredRSSI: Double? = nil,
        accuracy: Double? = nil,
        proximity: String? = nil, batteryMillivolts: UInt16? = nil, seenPerSecond: Double, lastSeen: Timestamp,
        kind: BeaconSighting.Kind? = nil, address: BluetoothAddress? = nil
    ) {
        self.batteryMillivolts = batteryMillivolts
        self.kind = kind
        self.address = address
        self.identity = identity
        self.name = name
        self.rssi = rssi
        self.filteredRSSI = filteredRSSI
        self.accuracy = accuracy
        self.proximity = proximity
        self.seenPerSecond = seenPerSecond
        self.lastSeen = lastSeen
    }

    /// The proximity UUID, the Eddystone namespace, or a device's `irk <address>` / `address <address>`
    /// (its name is in the name column; the address is the one it advertises from now).
    package var primaryID: String {
        switch identity.scheme {
        case .uuid: identity.id.uuidString
        case .eddystone: identity.eddystoneNamespace
        case .device: "\(kind?.rawValue ?? "device") \(address.map { "\($0)" } ?? "-")"
        }
    }

    /// `major/minor`, the Eddystone instance, or `-` for a device.
    package var secondaryID: String {
        switch identity.scheme {
        case .uuid: "\(identity.major)/\(identity.minor)"
        case .eddystone: identity.eddystoneInstance
        case .device: "-"
        }
    }
}
