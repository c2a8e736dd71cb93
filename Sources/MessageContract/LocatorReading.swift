import BeaconCore
import BeaconWire
import Vocabulary

/// One gateway's distance estimate for one beacon: a `proximity` message as the locator reads it.
package struct LocatorReading: Sendable, Equatable {
    package var beacon: BeaconIdentity
    package var name: String?
    package var gateway: String
    package var floor: String?
    package var room: String?
    /// Filtered RSSI as the gateway published it (its own `rssi_offset` included), nil when unknown.
    package var filteredRSSI: Double?
    /// The newest single reading the gateway published with it (`rssi`, its offset included).
    package var rssi: Double?
    package var measuredPower: Int?
    /// Metres, as the gateway estimated it; < 0 when unknown.
    package var accuracy: Double
    /// When the gateway ranged the beacon (its clock, from the payload).
    package var timestamp: Timestamp

    package init(
        beacon: BeaconIdentity, name: String? = nil, gateway: String, floor: String?, room: String?,
        filteredRSSI: Double? = nil, rssi: Double? = nil, measuredPower: Int? = nil, accuracy: Double,
        timestamp: Timestamp
    ) {
        self.beacon = beacon
        self.name = name
        self.gateway = gateway
        self.floor = floor
        self.room = room
        self.filteredRSSI = filteredRSSI
        self.rssi = rssi
        self.measuredPower = measuredPower
        self.accuracy = accuracy
        self.timestamp = timestamp
    }

    /// Parses `<base>/<uuid>/<major>/<minor>/<gw>/proximity` (or `<base>/eddystone/<ns>/<inst>/<gw>/proximity`)
    /// with the payload of docs/topics.md, "Payloads"; nil for anything else.
    package init?(topic: String, payload: String, baseTopic: String) {
        guard case .beacon(let beacon, let gateway, .proximity)? = TopicTree(base: baseTopic).parse(topic) else {
            return nil
        }
        self.init(beacon: beacon, gateway: gateway, payload: payload)
    }

    /// A proximity payload `gateway` published for `beacon`; nil when it is not one.
    init?(beacon: BeaconIdentity, gateway: String, payload: String) {
        guard let o = try? JSONObject(payload), let stamp = o.string("timestamp"),
            let timestamp = RetainedAttributes.timestamp(rfc3339: stamp),
            let accuracy = o.number("accuracy")
        else { return nil }
        self.init(
            beacon: beacon, name: o.string("name"), gateway: gateway, floor: o.string("floor"),
            room: o.string("room"), filteredRSSI: o.number("rssi_filtered"), rssi: o.number("rssi"),
            measuredPower: o.number("measured_power").map { Int($0) }, accuracy: accuracy,
            timestamp: timestamp)
    }
}
