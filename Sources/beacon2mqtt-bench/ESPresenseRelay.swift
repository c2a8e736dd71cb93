import BeaconConfig
import BeaconWire
import MessageContract

/// The location bench's mixed fleet: every second receiver of the site (receiver 2, 4, …) speaks
/// ESPresense instead of being one of our gateways. Its proximity messages, replayed from the same
/// captures, become the device reports an ESPresense node publishes on
/// `espresense/devices/<id>/<node>` (its filtered `rssi`, `rssi@1m` and `distance`, as the firmware's
/// `BleFingerprint::fill` writes them; no timestamp, no exit events), and the locator reads them
/// through `locator.foreign_sources`, each node mapped to the receiver's gateway id, floor and room.
struct ESPresenseRelay {
    static let suffix = ", half as ESPresense nodes"

    /// The receivers that speak ESPresense, by gateway id.
    let nodes: [SiteDescription.Receiver]

    init(site: SiteDescription) {
        nodes = site.receivers.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    /// `relayed` with the ESPresense receivers' proximity messages converted, in the same order, and
    /// their event messages dropped (ESPresense publishes none).
    func messages(_ relayed: [LocationBench.GatewayMessage]) -> [LocationBench.GatewayMessage] {
        let ids = Set(nodes.map(\.gateway))
        return relayed.compactMap { m in
            guard ids.contains(m.gateway) else { return m }
            guard m.topic.hasSuffix("/proximity"), let report = Self.report(m.payload) else { return nil }
            var converted = m
            converted.topic = "espresense/devices/\(report.id)/\(m.gateway)"
            converted.payload = report.payload
            return converted
        }
    }

    /// The locator's keys (a flow mapping, "" for none) with the nodes as a foreign source.
    func locatorKeys(_ keys: String) -> String {
        let list = nodes.map { n in
            "{node: \(YAMLText.quoted(n.gateway)), gateway: \(YAMLText.quoted(n.gateway)), "
                + "floor: \(YAMLText.quoted(n.floor)), room: \(YAMLText.quoted(n.room))}"
        }
        let source = "foreign_sources: [{format: espresense, nodes: [\(list.joined(separator: ", "))]}]"
        return LocationBench.merged(keys, "{\(source)}")
    }

    /// The ESPresense device id and report for one of our proximity payloads; nil when it has no
    /// distance (ESPresense reports none then) or no iBeacon identity.
    static func report(_ payload: String) -> (id: String, payload: String)? {
        guard let o = try? JSONObject(payload), let uuid = o.string("uuid"), let major = o.number("major"),
            let minor = o.number("minor"), let accuracy = o.number("accuracy"), accuracy >= 0,
            let rssi = o.number("rssi_filtered") ?? o.number("rssi")
        else { return nil }
        let id = "iBeacon:\(uuid)-\(Int(major))-\(Int(minor))"
        let mac = String((o.string("address") ?? "").filter { $0 != ":" })
        let power = o.number("measured_power").map { #""rssi@1m":\#(Int($0)),"# } ?? ""
        return (
            id,
            #"{"mac":"\#(mac)","id":"\#(id)",\#(power)"rssi":\#(twoDecimals(rssi)),"rxAdj":0,"distance":\#(twoDecimals(accuracy)),"var":0.00,"int":1000}"#
        )
    }

    /// ESPresense writes its numbers with two decimals (`String(value, 2)`).
    static func twoDecimals(_ v: Double) -> String {
        let hundredths = Int((v * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let a = abs(hundredths)
        return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
    }
}
