import BeaconCore
import BeaconWire

/// ESPresense's device report (`espresense/devices/<id>/<node>`), as its firmware writes it
/// (src/BleFingerprint.cpp, `BleFingerprint::fill` and `setId`; Tests/Fixtures/foreign/PROVENANCE.md):
/// `{"mac","id","name","rssi@1m","rssi","rxAdj","rssiVar","distance","var","close","int",…}` where
/// `rssi` is the node's filtered RSSI, `rssi@1m` the 1 m reference it used and `distance` its
/// filtered estimate. The `id` says what it recognised:
/// - `iBeacon:<uuid>-<major>-<minor>` and `altBeacon:<uuid>-<major>-<minor>`;
/// - `eddy:<namespace>-<instance>`: the firmware prints the namespace's fifth octet twice (22 hex
///   digits for 10 octets); both that and a plain 20-digit namespace are read;
/// - `irk:<32 hex>`: a resolvable address it resolved with a key it was given;
/// - `<12 hex>` or `known:<12 hex>`: a public or static random address;
/// - anything else (`apple:…`, `md:…`, `name:…`, an alias): no identity, unless `mac` is a
///   configured device's address.
extension ForeignReport {
    /// Parses one ESPresense device report; throws `Malformed` for a message that is not one.
    package static func espresense(payload: [UInt8]) throws(Malformed) -> ForeignReport {
        guard let o = try? JSONObject(payload) else { throw Malformed("not a JSON object") }
        guard let id = o.string("id"), !id.isEmpty else { throw Malformed("id missing") }
        let rssi = try number(o, "rssi", in: rssiRange)
        let power = try number(o, "rssi@1m", in: -127...0).map { Int($0) }
        guard let distance = try number(o, "distance", in: distanceRange) else { throw Malformed("distance missing") }
        var subject = espresenseSubject(id)
        if subject == nil, let mac = o.string("mac") {
            subject = espresenseAddress(Substring(mac)).map { .address($0) }
        }
        return ForeignReport(subject: subject, rssi: rssi, measuredPower: power, distance: distance)
    }

    /// The identity an ESPresense `id` names, nil for one that names none.
    static func espresenseSubject(_ id: String) -> Subject? {
        guard let colon = id.firstIndex(of: ":") else { return espresenseAddress(Substring(id)).map { .address($0) } }
        let kind = id[..<colon]
        let rest = id[id.index(after: colon)...]
        switch kind {
        case "iBeacon", "altBeacon":
            // <uuid with dashes>-<major>-<minor>: the last two dash-separated parts.
            let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count >= 3, let major = UInt16(parts[parts.count - 2]),
                let minor = UInt16(parts[parts.count - 1]),
                let uuid = BeaconID128(uuidString: parts.dropLast(2).joined(separator: "-"))
            else { return nil }
            return .beacon(.uuid(uuid, major: major, minor: minor))
        case "eddy":
            let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, var namespace = Hex.bytes(parts[0]), let instance = Hex.bytes(parts[1]),
                instance.count == 6
            else { return nil }
            // The firmware's format string repeats the fifth namespace octet.
            if namespace.count == 11, namespace[4] == namespace[5] { namespace.remove(at: 5) }
            guard namespace.count == 10 else { return nil }
            return .beacon(.eddystone(id128(namespace + instance)))
        case "irk":
            return IdentityResolvingKey(text: String(id)).map { .irk($0) }
        case "known":
            return espresenseAddress(rest).map { .address($0) }
        default:
            return nil
        }
    }

    /// ESPresense's address form: 12 hex digits, most significant octet first, no separators.
    static func espresenseAddress(_ text: Substring) -> BluetoothAddress? {
        guard text.utf8.count == 12, let bytes = Hex.bytes(text), bytes.count == 6 else { return nil }
        return BluetoothAddress(rawValue: bytes.reduce(0) { $0 << 8 | UInt64($1) })
    }
}
