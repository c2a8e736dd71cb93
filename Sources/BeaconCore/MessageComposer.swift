import BeaconWire

/// Builds the topics and payloads of the message contract (README, “Messages, monitoring and ranging”).
///
/// Key order is part of the contract and fixed here. Accuracy prints with 2 decimals, RSSI values
/// with 1; an RSSI of 127 ("not available") prints as null. Times are RFC 3339 UTC with milliseconds.
struct MessageComposer: Sendable {
    /// Where every message goes.
    var topics: TopicTree
    var floor: String?
    var room: String?
    var qos: Int
    /// gateway.rssi_offset, added to every RSSI this gateway reports.
    var rssiOffset: Double

    init(_ c: Configuration) {
        topics = TopicTree(c)
        floor = c.gateway.floor
        room = c.gateway.room
        qos = c.mqtt.qos
        rssiOffset = c.gateway.rssiOffset
    }

    /// A measured RSSI with the gateway offset applied; nil for 127 ("not available").
    func rssi(_ raw: Int8) -> Double? { raw == 127 ? nil : Double(raw) + rssiOffset }

    func state(_ topic: String, _ state: RegionState) -> OutboundMessage {
        OutboundMessage(topic: topic, payload: .text(state.rawValue), qos: qos, retain: true, kind: .state)
    }

    /// An empty retained message: removes the retained value from the broker.
    func clearRetained(_ topic: String) -> OutboundMessage {
        OutboundMessage(topic: topic, payload: .text(""), qos: qos, retain: true, kind: .state)
    }

    static func writeIdentity(_ w: inout JSONWriter, _ id: BeaconIdentity) {
        switch id.scheme {
        case .uuid:
            w.field("uuid", plain: id.id.appendUUID)
            w.field("major", Int(id.major))
            w.field("minor", Int(id.minor))
        case .eddystone:
            w.field("namespace", id.eddystoneNamespace)
            w.field("instance", id.eddystoneInstance)
        }
    }

    /// An RFC 3339 time, or null.
    private static func writeTime(_ w: inout JSONWriter, _ name: String, _ t: Timestamp?) {
        if let t { w.field(name, plain: t.appendRFC3339) } else { w.field(name, nil as String?) }
    }

    private func attributes(
        _ topic: String, state: RegionState, since: Timestamp?, lastSeen: Timestamp?, extra: (inout JSONWriter) -> Void
    ) -> OutboundMessage {
        var w = JSONWriter()
        w.beginObject()
        w.field("state", state.rawValue)
        Self.writeTime(&w, "since", since)
        Self.writeTime(&w, "last_seen", lastSeen)
        extra(&w)
        w.endObject()
        return OutboundMessage(topic: topic, payload: .json(w.text), qos: qos, retain: true, kind: .state)
    }

    /// `{"state","since","last_seen","name"}`, retained.
    func beaconAttributes(
        _ id: BeaconIdentity, state: RegionState, since: Timestamp?, lastSeen: Timestamp?, name: String?
    ) -> OutboundMessage {
        attributes(topics.beacon(id, .attributes), state: state, since: since, lastSeen: lastSeen) {
            $0.field("name", name)
        }
    }

    /// `{"state","since","last_seen","beacons_in_range"}`, retained.
    func regionAttributes(
        _ region: String, state: RegionState, since: Timestamp?, lastSeen: Timestamp?, beaconsInRange: Int
    ) -> OutboundMessage {
        attributes(topics.region(region, .attributes), state: state, since: since, lastSeen: lastSeen) {
            $0.field("beacons_in_range", beaconsInRange)
        }
    }

    /// What an enter/exit event says about the beacon that triggered it.
    struct EventBeacon {
        /// nil only for a restored region that exits before any sighting.
        var identity: BeaconIdentity?
        var name: String?
        var address: BluetoothAddress?
        var rssi: Int8
        var lastSeen: Timestamp?
    }

    /// Event payload. Beacon topic: `{"event",<identity>,"name","gateway","floor","room","address",
    /// "rssi","timestamp","last_seen"[,"reason"]}`; region topic: the same with `"region"` after `"event"`.
    func event(
        _ kind: String, topic: String, region: String?, beacon b: EventBeacon, at t: Timestamp, reason: String? = nil
    ) -> OutboundMessage {
        var w = JSONWriter()
        w.beginObject()
        w.field("event", kind)
        if let region { w.field("region", region) }
        if let id = b.identity { Self.writeIdentity(&w, id) }
        w.field("name", b.name)
        w.field("gateway", topics.gateway)
        w.field("floor", floor)
        w.field("room", room)
        if let address = b.address {
            w.field("address", plain: address.appendText)
        } else {
            w.field("address", nil as String?)
        }
        w.field("rssi", rssi(b.rssi), decimals: 1)
        w.field("timestamp", plain: t.appendRFC3339)
        Self.writeTime(&w, "last_seen", b.lastSeen)
        if let reason { w.field("reason", reason) }
        w.endObject()
        return OutboundMessage(topic: topic, payload: .json(w.text), qos: qos, retain: false, kind: .event)
    }

    /// What ranging knows about one beacon at a tick.
    struct RangedBeacon {
        var identity: BeaconIdentity
        var name: String?
        var address: BluetoothAddress
        var rssi: Int8
        var filteredRSSI: Double?
        var measuredPower: Int
        var accuracy: Double
        var proximity: Proximity
        var lastSeen: Timestamp
        /// `identityMembers(of:)` for this beacon, when the caller keeps it.
        var identityMembers: [UInt8]? = nil
    }

    /// A ranging-list entry's leading members: `"uuid","major","minor","name","address"`.
    func identityMembers(of b: RangedBeacon) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        Self.writeIdentity(&w, b.identity)
        w.field("name", b.name)
        w.field("address", plain: b.address.appendText)
        return Array(w.innerBytes)
    }

    private func writeRanged(_ w: inout JSONWriter, _ b: RangedBeacon, gatewayFields: Bool) {
        if !gatewayFields, let members = b.identityMembers {
            w.members(members)
        } else {
            Self.writeIdentity(&w, b.identity)
            w.field("name", b.name)
            if gatewayFields {
                w.field("gateway", topics.gateway)
                w.field("floor", floor)
                w.field("room", room)
            }
            w.field("address", plain: b.address.appendText)
        }
        w.field("rssi", rssi(b.rssi), decimals: 1)
        w.field("rssi_filtered", b.filteredRSSI, decimals: 1)
        w.field("measured_power", b.measuredPower)
        w.field("accuracy", b.accuracy, decimals: 2)
        w.field("proximity", b.proximity.rawValue)
    }

    /// `{<identity>,"name","gateway","floor","room","address","rssi","rssi_filtered","measured_power",
    /// "accuracy","proximity","timestamp"}`, QoS 0, not retained.
    func proximity(_ b: RangedBeacon, at t: Timestamp) -> OutboundMessage {
        var w = JSONWriter()
        w.beginObject()
        writeRanged(&w, b, gatewayFields: true)
        w.field("timestamp", plain: t.appendRFC3339)
        w.endObject()
        return OutboundMessage(
            topic: topics.beacon(b.identity, .proximity), payload: .json(w.text), qos: 0, retain: false,
            kind: .proximity)
    }

    /// A JSON array, nearest first, of `{<identity>,"name","address","rssi","rssi_filtered",
    /// "measured_power","accuracy","proximity","last_seen"}`; QoS 0, not retained.
    func ranging(_ region: String, _ beacons: [RangedBeacon]) -> OutboundMessage {
        var w = JSONWriter(capacity: 2 + 240 * beacons.count)
        var times = RFC3339Formatter()
        w.beginArray()
        for b in beacons {
            w.beginObject()
            writeRanged(&w, b, gatewayFields: false)
            w.field("last_seen", plain: { times.append(b.lastSeen, to: &$0) })
            w.endObject()
        }
        w.endArray()
        return OutboundMessage(
            topic: topics.region(region, .ranging), payload: .json(w.text), qos: 0, retain: false, kind: .ranging)
    }
}
