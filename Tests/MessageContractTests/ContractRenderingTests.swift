import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Testing
import Vocabulary

/// One of each monitoring event through the contract, every message compared whole: topic,
/// payload text, QoS, retain and kind (docs/topics.md, "Payloads").
@Suite struct ContractRenderingTests {
    /// 2024-05-01T12:00:00.000Z.
    static let t0 = Timestamp(microseconds: 1_714_564_800_000_000)
    static let id = BeaconIdentity.uuid(
        BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!, major: 1, minor: 2)
    static let address = BluetoothAddress("c0:ff:ee:00:00:01")!
    static let uuidTopic = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/"
    static let identityJSON = #""uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":2"#

    static func at(_ seconds: Int64) -> Timestamp { t0 + TimeSpan(microseconds: seconds * 1_000_000) }

    static func configuration() -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.gateway.floor = "1"
        c.gateway.room = "kitchen"
        c.gateway.rssiOffset = 2
        c.homeAssistant.roomTopic = "espresense/rooms"
        return c
    }

    static let trigger = TransitionBeacon(identity: id, name: "keys", address: address, rssi: -61, lastSeen: at(1))
    static let ranged = RangedBeacon(
        identity: id, name: "keys", address: address, rssi: -60, filteredRSSI: -58.25, measuredPower: -59,
        accuracy: 0.8123, proximity: .near, lastSeen: at(2), slot: 0, generation: 1)

    func render(_ e: MonitoringEvent) -> [OutboundMessage] {
        var composer = MessageComposer(Self.configuration())
        var out: [OutboundMessage] = []
        composer.compose(e, into: &out)
        return out
    }

    func message(
        _ topic: String, json: String, qos: Int = 1, retain: Bool = false, _ kind: OutboundMessage.Kind
    )
        -> OutboundMessage
    {
        OutboundMessage(topic: topic, payload: .json(json), qos: qos, retain: retain, kind: kind)
    }

    func text(_ topic: String, _ text: String, _ kind: OutboundMessage.Kind = .state) -> OutboundMessage {
        OutboundMessage(topic: topic, payload: .text(text), qos: 1, retain: true, kind: kind)
    }

    @Test func regionEnterAndExit() {
        let fields =
            Self.identityJSON
            + #","name":"keys","gateway":"gw1","floor":"1","room":"kitchen","address":"c0:ff:ee:00:00:01","rssi":-59,"#
        #expect(
            render(.didEnterRegion("office", by: Self.trigger, at: Self.at(1))) == [
                message(
                    "beacons/regions/office/gw1/event",
                    json: #"{"event":"enter","region":"office","# + fields
                        + #""timestamp":"2024-05-01T12:00:01.000Z","last_seen":"2024-05-01T12:00:01.000Z"}"#, .event)
            ])
        let restored = TransitionBeacon(identity: nil, name: nil, address: nil, rssi: 127, lastSeen: Self.at(1))
        #expect(
            render(.didExitRegion("office", by: restored, at: Self.at(11))) == [
                message(
                    "beacons/regions/office/gw1/event",
                    json:
                        #"{"event":"exit","region":"office","name":null,"gateway":"gw1","floor":"1","room":"kitchen","address":null,"rssi":null,"timestamp":"2024-05-01T12:00:11.000Z","last_seen":"2024-05-01T12:00:01.000Z"}"#,
                    .event)
            ])
    }

    @Test func regionState() {
        let status = RegionStatus(state: .inside, since: Self.at(1), lastSeen: Self.at(3))
        #expect(
            render(.didDetermineState("office", status, beaconsInRange: 2)) == [
                text("beacons/regions/office/gw1/state", "inside"),
                message(
                    "beacons/regions/office/gw1/attributes",
                    json:
                        #"{"state":"inside","since":"2024-05-01T12:00:01.000Z","last_seen":"2024-05-01T12:00:03.000Z","beacons_in_range":2}"#,
                    retain: true, .state),
            ])
        let unseen = RegionStatus(state: .outside, since: Self.at(10), lastSeen: nil)
        #expect(
            render(.didDetermineState("office", unseen, beaconsInRange: 0)).last?.payload
                == .json(
                    #"{"state":"outside","since":"2024-05-01T12:00:10.000Z","last_seen":null,"beacons_in_range":0}"#))
    }

    @Test func beaconEnterExitAndState() {
        let fields =
            #","name":"keys","gateway":"gw1","floor":"1","room":"kitchen","address":"c0:ff:ee:00:00:01","rssi":-59,"#
        #expect(
            render(.beaconDidEnter(Self.trigger, at: Self.at(1))) == [
                message(
                    Self.uuidTopic + "event",
                    json: #"{"event":"enter","# + Self.identityJSON + fields
                        + #""timestamp":"2024-05-01T12:00:01.000Z","last_seen":"2024-05-01T12:00:01.000Z"}"#, .event)
            ])
        #expect(
            render(.beaconDidExit(Self.trigger, at: Self.at(4), reason: .evicted)) == [
                message(
                    Self.uuidTopic + "event",
                    json: #"{"event":"exit","# + Self.identityJSON + fields
                        + #""timestamp":"2024-05-01T12:00:04.000Z","last_seen":"2024-05-01T12:00:01.000Z","reason":"evicted"}"#,
                    .event)
            ])
        let status = RegionStatus(state: .outside, since: Self.at(4), lastSeen: Self.at(1))
        #expect(
            render(.beaconDidDetermineState(Self.id, name: nil, status)) == [
                text(Self.uuidTopic + "state", "outside"),
                message(
                    Self.uuidTopic + "attributes",
                    json:
                        #"{"state":"outside","since":"2024-05-01T12:00:04.000Z","last_seen":"2024-05-01T12:00:01.000Z","name":null}"#,
                    retain: true, .state),
            ])
    }

    @Test func proximityWithTheRoomFeed() {
        #expect(
            render(.didRangeBeacon(Self.ranged, at: Self.at(2))) == [
                message(
                    Self.uuidTopic + "proximity",
                    json: "{" + Self.identityJSON
                        + #","name":"keys","gateway":"gw1","floor":"1","room":"kitchen","address":"c0:ff:ee:00:00:01","rssi":-58,"rssi_filtered":-58.3,"measured_power":-59,"accuracy":0.81,"proximity":"near","timestamp":"2024-05-01T12:00:02.000Z"}"#,
                    qos: 0, .proximity),
                message(
                    "espresense/rooms/kitchen",
                    json: #"{"id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2","name":"keys","distance":0.81}"#, qos: 0,
                    .location),
            ])
    }

    @Test func rangingListThenEmpty() {
        #expect(
            render(.didRange("office", [Self.ranged])) == [
                message(
                    "beacons/regions/office/gw1/ranging",
                    json: "[{" + Self.identityJSON
                        + #","name":"keys","address":"c0:ff:ee:00:00:01","rssi":-58,"rssi_filtered":-58.3,"measured_power":-59,"accuracy":0.81,"proximity":"near","last_seen":"2024-05-01T12:00:02.000Z"}]"#,
                    qos: 0, .ranging)
            ])
        #expect(
            render(.didRange("office", [])) == [
                message("beacons/regions/office/gw1/ranging", json: "[]", qos: 0, .ranging)
            ])
    }

    @Test func stoppingWithdrawsTheRetainedTopics() {
        #expect(
            render(.didStopMonitoringRegion("office")) == [
                text("beacons/regions/office/gw1/state", ""), text("beacons/regions/office/gw1/attributes", ""),
            ])
        #expect(
            render(.didStopMonitoringBeacon(Self.id)) == [
                text(Self.uuidTopic + "state", ""), text(Self.uuidTopic + "attributes", ""),
                text(Self.uuidTopic + "telemetry", ""),
            ])
    }
}
