import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// Turns monitoring events into the topics and payloads of the message contract (docs/topics.md,
/// "Payloads").
///
/// Key order is part of the contract and fixed here. Accuracy prints with 2 decimals, RSSI values
/// with 1; an RSSI of 127 ("not available") prints as null. Times are RFC 3339 UTC with milliseconds.
package struct MessageComposer: Sendable {
    /// Where every message goes.
    var topics: TopicTree
    var floor: String?
    var room: String?
    var qos: Int
    /// gateway.rssi_offset, added to every RSSI this gateway reports.
    var rssiOffset: Double
    /// Home Assistant `mqtt_room` feed, when `homeassistant.room_topic` is set.
    var roomFeed: HomeAssistantRoomFeed?
    /// ESPresense device reports, when `compat` lists `espresense`.
    var espresenseFeed: ESPresenseFeed?
    /// Per monitor table slot: cached ranging-list identity text (see `RangedIdentityText`).
    var identityTexts: [RangedIdentityText] = []
    /// How each configured device is identified, printed as its payloads' `"identity"`.
    var deviceKinds: [BeaconIdentity: BeaconSighting.Kind] = [:]
    /// Added to every time printed: the wall clock's distance from a live pipeline's steady clock
    /// (the agent core sets it; see AgentCore+Time), so payloads carry wall time after a step.
    package var wallOffset = TimeSpan(microseconds: 0)

    package init(_ c: Configuration, wallOffset: TimeSpan = TimeSpan(microseconds: 0)) {
        self.wallOffset = wallOffset
        topics = TopicTree(c)
        floor = c.gateway.floor
        room = c.gateway.room
        qos = c.mqtt.qos
        rssiOffset = c.gateway.rssiOffset
        roomFeed = HomeAssistantRoomFeed(configuration: c, settings: c.homeAssistant)
        espresenseFeed = ESPresenseFeed(configuration: c)
        for d in c.devices { deviceKinds[d.identity] = d.kind }
    }

    /// Appends the messages `e` makes, in the order they are published.
    package mutating func compose(_ e: MonitoringEvent, into out: inout [OutboundMessage]) {
        switch e {
        case .didEnterRegion(let region, let b, let t):
            out.append(event("enter", topic: topics.region(region, .event), region: region, beacon: b, at: t))
        case .didExitRegion(let region, let b, let t):
            out.append(event("exit", topic: topics.region(region, .event), region: region, beacon: b, at: t))
        case .didDetermineState(let region, let s, let inRange):
            out.append(state(topics.region(region, .state), s.state))
            out.append(regionAttributes(region, s, beaconsInRange: inRange))
        case .beaconDidEnter(let b, let t):
            guard let id = b.identity else { return }
            out.append(event("enter", topic: topics.beacon(id, .event), region: nil, beacon: b, at: t))
        case .beaconDidExit(let b, let t, let reason):
            guard let id = b.identity else { return }
            out.append(
                event("exit", topic: topics.beacon(id, .event), region: nil, beacon: b, at: t, reason: reason?.rawValue)
            )
        case .beaconDidDetermineState(let id, let name, let s):
            out.append(state(topics.beacon(id, .state), s.state))
            out.append(beaconAttributes(id, s, name: name))
        case .didRangeBeacon(let b, let t):
            out.append(proximity(b, at: t))
            if let feed = roomFeed, b.accuracy >= 0,
                let room = feed.message(identity: b.identity, name: b.name, distance: b.accuracy)
            {
                out.append(room)
            }
            if let feed = espresenseFeed, let report = feed.message(b, rssiOffset: rssiOffset) { out.append(report) }
        case .didRange(let region, let beacons):
            out.append(ranging(region, beacons))
        case .didStopMonitoringRegion(let region):
            out.append(clearRetained(topics.region(region, .state)))
            out.append(clearRetained(topics.region(region, .attributes)))
        case .didStopMonitoringBeacon(let id):
            out.append(clearRetained(topics.beacon(id, .state)))
            out.append(clearRetained(topics.beacon(id, .attributes)))
            out.append(clearRetained(topics.beacon(id, .telemetry)))
        case .didUpdateTelemetry(let b):
            out.append(telemetry(b))
        }
    }

    /// A measured RSSI with the gateway offset applied; nil for 127 ("not available").
    func rssi(_ raw: Int8) -> Double? { Self.rssi(raw, offset: rssiOffset) }

    static func rssi(_ raw: Int8, offset: Double) -> Double? { raw == 127 ? nil : Double(raw) + offset }

    func state(_ topic: String, _ state: RegionState) -> OutboundMessage {
        OutboundMessage(topic: topic, payload: .text(state.rawValue), qos: qos, retain: true, kind: .state)
    }

    /// An empty retained message: removes the retained value from the broker.
    package func clearRetained(_ topic: String) -> OutboundMessage {
        OutboundMessage(topic: topic, payload: .text(""), qos: qos, retain: true, kind: .state)
    }

    /// The identity members: `"uuid","major","minor"`, `"namespace","instance"`, or for a device
    /// `"identity"` (`irk` or `address`; nothing when `deviceKind` is unknown, as to the locator).
    /// A device's name follows as `"name"` in every payload, so it is not repeated here.
    static func writeIdentity(_ w: inout JSONWriter, _ id: BeaconIdentity, deviceKind: BeaconSighting.Kind? = nil) {
        switch id.scheme {
        case .uuid:
            w.field("uuid", plain: id.id.appendUUID)
            w.field("major", Int(id.major))
            w.field("minor", Int(id.minor))
        case .eddystone:
            w.field("namespace", id.eddystoneNamespace)
            w.field("instance", id.eddystoneInstance)
        case .device:
            if let deviceKind { w.field("identity", deviceKind.rawValue) }
        }
    }

    /// How a configured device is identified; nil for beacons.
    func deviceKind(_ id: BeaconIdentity) -> BeaconSighting.Kind? {
        id.scheme == .device ? deviceKinds[id] : nil
    }

    /// An RFC 3339 time, or null.
    func writeTime(_ w: inout JSONWriter, _ name: String, _ t: Timestamp?) {
        if let t { w.field(name, plain: (t + wallOffset).appendRFC3339) } else { w.field(name, nil as String?) }
    }

    private func attributes(
        _ topic: String, state: RegionState, since: Timestamp?, lastSeen: Timestamp?, extra: (inout JSONWriter) -> Void
    ) -> OutboundMessage {
        var w = JSONWriter()
        w.beginObject()
        w.field("state", state.rawValue)
        writeTime(&w, "since", since)
        writeTime(&w, "last_seen", lastSeen)
        extra(&w)
        w.endObject()
        return OutboundMessage(topic: topic, payload: .json(w.text), qos: qos, retain: true, kind: .state)
    }

    /// `{"state","since","last_seen","name"}`, retained.
    func beaconAttributes(_ id: BeaconIdentity, _ s: RegionStatus, name: String?) -> OutboundMessage {
        attributes(topics.beacon(id, .attributes), state: s.state, since: s.since, lastSeen: s.lastSeen) {
            $0.field("name", name)
        }
    }

    /// `{"state","since","last_seen","beacons_in_range"}`, retained.
    func regionAttributes(_ region: String, _ s: RegionStatus, beaconsInRange: Int) -> OutboundMessage {
        attributes(topics.region(region, .attributes), state: s.state, since: s.since, lastSeen: s.lastSeen) {
            $0.field("beacons_in_range", beaconsInRange)
        }
    }

    /// Event payload. Beacon topic: `{"event",<identity>,"name","gateway","floor","room","address",
    /// "rssi","timestamp","last_seen"[,"reason"]}`; region topic: the same with `"region"` after `"event"`.
    func event(
        _ kind: String, topic: String, region: String?, beacon b: TransitionBeacon, at t: Timestamp,
        reason: String? = nil
    ) -> OutboundMessage {
        var w = JSONWriter()
        w.beginObject()
        w.field("event", kind)
        if let region { w.field("region", region) }
        if let id = b.identity { Self.writeIdentity(&w, id, deviceKind: deviceKind(id)) }
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
        writeTime(&w, "timestamp", t)
        writeTime(&w, "last_seen", b.lastSeen)
        if let reason { w.field("reason", reason) }
        w.endObject()
        return OutboundMessage(topic: topic, payload: .json(w.text), qos: qos, retain: false, kind: .event)
    }

    /// A ranging-list entry's leading members: `"uuid","major","minor","name","address"`; with
    /// `gatewayFields`, a proximity payload's: `"gateway","floor","room"` before `"address"`.
    func identityMembers(of b: RangedBeacon, gatewayFields: Bool = false) -> [UInt8] {
        var w = JSONWriter(capacity: 160)
        w.beginObject()
        writeIdentityMembers(&w, b, gatewayFields: gatewayFields)
        return Array(w.innerBytes)
    }

    private func writeIdentityMembers(_ w: inout JSONWriter, _ b: RangedBeacon, gatewayFields: Bool) {
        Self.writeIdentity(&w, b.identity, deviceKind: deviceKind(b.identity))
        w.field("name", b.name)
        if gatewayFields {
            w.field("gateway", topics.gateway)
            w.field("floor", floor)
            w.field("room", room)
        }
        w.field("address", plain: b.address.appendText)
    }

    /// The cache entry for `b`'s slot, or nil the first time the slot is asked about this beacon
    /// (the entry is then reset to it): texts are kept from a beacon's second use on, so a flood
    /// of identities that are each heard once fills no slot with text.
    private mutating func cacheSlot(of b: RangedBeacon) -> Int? {
        guard b.slot >= 0 else { return nil }
        let n = Int(b.slot)
        if n >= identityTexts.count {
            identityTexts.append(contentsOf: repeatElement(.empty, count: n + 1 - identityTexts.count))
        }
        if identityTexts[n].holds(b) { return n }
        identityTexts[n] = RangedIdentityText(generation: b.generation, address: b.address)
        return nil
    }

    /// The measured members, written many times a tick: composed on the stack in one run.
    /// Static, so the closures that call it capture no composer (a closure in a mutating method
    /// that called a method copied the whole composer: about 450 instructions an entry).
    private static func writeMeasurement(_ m: inout JSONMemberRun, _ b: RangedBeacon, rssiOffset: Double) {
        m.key("rssi")
        m.double(rssi(b.rssi, offset: rssiOffset), decimals: 1)
        m.key("rssi_filtered")
        m.double(b.filteredRSSI, decimals: 1)
        m.key("measured_power")
        m.int(b.measuredPower)
        m.key("accuracy")
        m.double(b.accuracy, decimals: 2)
        m.key("proximity")
        m.plain(b.proximity.rawValue)
    }

    /// `{<identity>,"name","gateway","floor","room","address","rssi","rssi_filtered","measured_power",
    /// "accuracy","proximity","timestamp"}`, QoS 0, not retained.
    mutating func proximity(_ b: RangedBeacon, at t: Timestamp) -> OutboundMessage {
        var w = JSONWriter()
        w.beginObject()
        let topic: String
        if let n = cacheSlot(of: b) {
            if identityTexts[n].proximityMembers.isEmpty {
                identityTexts[n].proximityMembers = identityMembers(of: b, gatewayFields: true)
                identityTexts[n].proximityTopic = topics.beacon(b.identity, .proximity)
            }
            w.members(identityTexts[n].proximityMembers)
            topic = identityTexts[n].proximityTopic
        } else {
            writeIdentityMembers(&w, b, gatewayFields: true)
            topic = topics.beacon(b.identity, .proximity)
        }
        let offset = rssiOffset
        w.members(maximum: 256) { Self.writeMeasurement(&$0, b, rssiOffset: offset) }
        writeTime(&w, "timestamp", t)
        w.endObject()
        return OutboundMessage(topic: topic, payload: .json(w.text), qos: 0, retain: false, kind: .proximity)
    }

    /// A JSON array, nearest first, of `{<identity>,"name","address","rssi","rssi_filtered",
    /// "measured_power","accuracy","proximity","last_seen"}`; QoS 0, not retained.
    mutating func ranging(_ region: String, _ beacons: [RangedBeacon]) -> OutboundMessage {
        var w = JSONWriter(capacity: 2 + 240 * beacons.count)
        var times = RFC3339Formatter()
        let offset = rssiOffset
        w.beginArray()
        // By index: `for b in beacons` copied each entry out (its name retained and released).
        for k in beacons.indices {
            let b = beacons[k]
            let identity: [UInt8]
            if let n = cacheSlot(of: b) {
                if identityTexts[n].members.isEmpty { identityTexts[n].members = identityMembers(of: b) }
                identity = identityTexts[n].members
            } else {
                identity = identityMembers(of: b)
            }
            let lastSeen = b.lastSeen + wallOffset
            // The whole entry in one run: the measured members (about 270 bytes at most) and the time.
            w.object(maximum: identity.count &+ 320) { m in
                m.members(identity)
                Self.writeMeasurement(&m, b, rssiOffset: offset)
                m.key("last_seen")
                m.time(lastSeen, &times)
            }
        }
        w.endArray()
        return OutboundMessage(
            topic: topics.region(region, .ranging), payload: .json(w.text), qos: 0, retain: false, kind: .ranging)
    }
}
