import BeaconCore
import BeaconWire

/// What one foreign node's message says about one advertiser (`ForeignSource.Format`): who it is, if
/// the message carries an identity, and the node's own signal and distance. Parsed without I/O;
/// `ForeignSourceReader` maps it to a node's gateway and a `LocatorReading`.
package struct ForeignReport: Sendable, Equatable {
    /// The identity a message carries.
    package enum Subject: Sendable, Equatable {
        /// iBeacon / AltBeacon (uuid, major, minor) or Eddystone-UID (namespace, instance).
        case beacon(BeaconIdentity)
        /// An advertiser's public or static address: an identity when a configured device has it.
        case address(BluetoothAddress)
        /// A resolvable private address the node resolved with a key it holds: an identity when a
        /// configured device has that key.
        case irk(IdentityResolvingKey)
    }

    /// A message that is not the format's: not JSON, or a field missing or of the wrong type (named
    /// in `reason`). Counted and logged at debug level; nothing else happens.
    package struct Malformed: Error, Sendable, Equatable {
        package var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// nil when the message names nothing the locator can track (a phone's rotating address, a
    /// sensor, an Apple Continuity frame).
    package var subject: Subject?
    /// The node's RSSI (ESPresense: its filtered value), dBm.
    package var rssi: Double?
    /// The advertiser's calibrated RSSI at 1 m, as the node read or assumed it.
    package var measuredPower: Int?
    /// The node's own distance estimate, metres; nil when it sends none.
    package var distance: Double?

    package init(subject: Subject?, rssi: Double?, measuredPower: Int? = nil, distance: Double? = nil) {
        self.subject = subject
        self.rssi = rssi
        self.measuredPower = measuredPower
        self.distance = distance
    }

    /// A finite number in `range`, or nil when the member is absent; `.malformed` when present but
    /// not such a number.
    static func number(_ o: JSONObject, _ name: String, in range: ClosedRange<Double>) throws(Malformed) -> Double? {
        guard let value = o[name], value != JSONObject.Value.null else { return nil }
        guard let n = o.number(name), n.isFinite, range.contains(n) else {
            throw Malformed("\(name) is not a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return n
    }

    /// 16 octets as a beacon id, most significant first.
    static func id128(_ b: [UInt8]) -> BeaconID128 {
        BeaconID128(high: ByteReader.uint64(b, at: 0, .bigEndian), low: ByteReader.uint64(b, at: 8, .bigEndian))
    }

    /// The RSSI range a report may carry, dBm.
    static let rssiRange: ClosedRange<Double> = -127...20
    /// The distances a report may carry, metres.
    static let distanceRange: ClosedRange<Double> = 0...1000
}
