import BeaconCore
import BeaconWire
import Settings

/// `compat: espresense`: every proximity message is also published as an ESPresense node's device
/// report, so a site running ESPresense-companion takes the gateway as one more node (configured
/// there with `id: <gateway.id>` and its point) and merges its readings with its ESPresense
/// nodes' under the same device id.
///
/// The report is the one the firmware writes (ESPresense src/BleFingerprint.cpp, `fill` and
/// `setId`; Tests/Fixtures/foreign/PROVENANCE.md) with the members ESPresense-companion reads
/// (src/Models/DeviceMessage.cs): `{"mac","id","name","rssi@1m","rssi","rxAdj","distance"}` on
/// `espresense/devices/<id>/<gateway.id>`. The id is the firmware's for the same beacon, so both
/// kinds of node name it alike:
/// - `iBeacon:<uuid>-<major>-<minor>`;
/// - `eddy:<namespace>-<instance>`, the namespace's fifth octet printed twice as the firmware's
///   format string does;
/// - a configured device's name: ESPresense's alias for a device (its IRK is a secret and is never
///   published), so the device is given that alias in ESPresense-companion.
package struct ESPresenseFeed: Sendable {
    /// The node id: the gateway id.
    package let node: String
    /// ESPresense's `rxAdj`: its nodes subtract it from the RSSI, the gateway adds `rssi_offset`.
    let rxAdjust: Double

    /// Nil unless `compat` lists `espresense`.
    package init?(configuration c: Configuration) {
        guard c.compat.contains(.espresense) else { return nil }
        node = c.gateway.id
        rxAdjust = -c.gateway.rssiOffset
    }

    /// The device id ESPresense gives `identity`; a configured device's is its name.
    package static func deviceID(_ identity: BeaconIdentity, name: String?) -> String? {
        switch identity.scheme {
        case .uuid: return "iBeacon:\(identity.id.uuidString)-\(identity.major)-\(identity.minor)"
        case .eddystone:
            let namespace = Array(identity.id.bytes[0..<10])
            let printed = Hex.string(namespace[0..<5] + namespace[4..<10])
            return "eddy:\(printed)-\(identity.eddystoneInstance)"
        case .device: return name
        }
    }

    /// One device report (QoS 0, not retained, like proximity); nil when the distance or the RSSI is
    /// unknown, since ESPresense-companion reads a missing number as 0.
    package func message(_ b: RangedBeacon, rssiOffset: Double) -> OutboundMessage? {
        guard b.accuracy >= 0, let rssi = b.filteredRSSI ?? MessageComposer.rssi(b.rssi, offset: rssiOffset),
            let id = Self.deviceID(b.identity, name: b.name)
        else { return nil }
        var w = JSONWriter(capacity: 200)
        w.beginObject()
        w.field("mac", Hex.string(Self.octets(b.address)))
        w.field("id", id)
        if let name = b.name { w.field("name", name) }
        w.field("rssi@1m", b.measuredPower)
        w.field("rssi", rssi, decimals: 2)
        if rxAdjust == rxAdjust.rounded() { w.field("rxAdj", Int(rxAdjust)) } else { w.field("rxAdj", rxAdjust) }
        w.field("distance", b.accuracy, decimals: 2)
        w.endObject()
        return OutboundMessage(
            topic: "espresense/devices/\(id)/\(node)", payload: .json(w.text), qos: 0, retain: false, kind: .proximity)
    }

    /// An address's six octets, most significant first (the firmware's `mac`: 12 lowercase hex digits).
    static func octets(_ a: BluetoothAddress) -> [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: a.rawValue >> UInt64(40 - 8 * $0)) }
    }
}
