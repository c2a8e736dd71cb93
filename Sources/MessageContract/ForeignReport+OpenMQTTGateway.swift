import BeaconCore
import BeaconWire

/// OpenMQTTGateway's and Theengs Gateway's message per advertisement (`home/<node>/BTtoMQTT/<address>`):
/// the Theengs decoder's JSON (Tests/Fixtures/foreign/PROVENANCE.md), `{"id":"<address>","rssi",…}`
/// plus, for an iBeacon, `"model_id":"IBEACON","uuid":"<32 hex>","major","minor","txpower"` (major
/// and minor signed: 62207 is −3329).
/// OpenMQTTGateway adds its own `distance`; with `presenceUseBeaconUuid` the `id` is the uuid and
/// the address moves to `mac`. The decoder has no Eddystone-UID model: a UID frame is read from the
/// raw `servicedata` under `servicedatauuid` `0xfeaa` (OpenMQTTGateway) or `feaa` (Theengs Gateway,
/// `publish_all`), as both publish an advertisement the decoder does not know.
extension ForeignReport {
    /// Parses one OpenMQTTGateway / Theengs Gateway message; throws `Malformed` for a message that is not one.
    package static func openMQTTGateway(payload: [UInt8]) throws(Malformed) -> ForeignReport {
        guard let o = try? JSONObject(payload) else { throw Malformed("not a JSON object") }
        guard let rssi = try number(o, "rssi", in: rssiRange) else { throw Malformed("rssi missing") }
        let distance = try number(o, "distance", in: distanceRange)
        var report = ForeignReport(subject: nil, rssi: rssi, distance: distance)
        if o.string("model_id") == "IBEACON" {
            guard let text = o.string("uuid"), let uuid = BeaconID128(uuidString: text) else {
                throw Malformed("uuid is not 32 hex digits")
            }
            guard let major = try uint16(o, "major"), let minor = try uint16(o, "minor") else {
                throw Malformed("major or minor missing")
            }
            report.subject = .beacon(.uuid(uuid, major: major, minor: minor))
            report.measuredPower = try txPower(o)
        } else if let service = o.string("servicedatauuid"), ["0xfeaa", "feaa"].contains(service.lowercased()),
            let data = o.string("servicedata").flatMap(Hex.bytes), data.count >= 18, data[0] == 0x00
        {
            // Eddystone-UID: frame type, Tx power at 0 m, namespace (10), instance (6).
            report.subject = .beacon(.eddystone(id128(Array(data[2..<18]))))
            report.measuredPower = Int(Int8(bitPattern: data[1])) - 41
        }
        if report.subject == nil {
            let address = o.string("mac") ?? o.string("id")
            guard let address else { throw Malformed("id missing") }
            report.subject = BluetoothAddress(address).map { .address($0) }
        }
        return report
    }

    /// An iBeacon's major or minor. The decoder reads the two octets as a signed number
    /// (`value_from_hex_data`), so 62207 (`f2ff`) comes as −3329: both forms are read.
    static func uint16(_ o: JSONObject, _ name: String) throws(Malformed) -> UInt16? {
        guard let n = try number(o, name, in: -32768...65535) else { return nil }
        guard n == n.rounded() else { throw Malformed("\(name) is not an integer") }
        return UInt16(truncatingIfNeeded: Int(n))
    }

    /// The decoder's `txpower`: the iBeacon's measured power at 1 m. It reads the octet unsigned
    /// (`value_from_hex_data`), so 197 is −59 dBm; nil when absent.
    static func txPower(_ o: JSONObject) throws(Malformed) -> Int? {
        guard let raw = try number(o, "txpower", in: -128...255), raw == raw.rounded() else { return nil }
        let power = raw > 127 ? Int(raw) - 256 : Int(raw)
        return power < 0 ? power : nil
    }
}
