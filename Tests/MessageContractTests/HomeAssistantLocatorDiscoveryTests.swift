import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import Settings
import TestFixtures
import Testing
import Vocabulary

/// The locator's discovery: per configured beacon a room tracker, room and floor sensors and a
/// location-change event on the beacon's device, all reading what the locator publishes.
@Suite struct HomeAssistantLocatorDiscoveryTests {
    static func configuration() -> Configuration {
        var c = HomeAssistantDiscoveryTests.configuration()
        c.gateway.id = "loc1"
        c.homeAssistant.discovery = true
        return c
    }

    static func discovery(_ c: Configuration = configuration()) -> HomeAssistantLocatorDiscovery {
        HomeAssistantLocatorDiscovery(configuration: c, softwareVersion: "9.9.9")
    }

    static func payloads() throws -> [(topic: String, json: [String: Any])] {
        try discovery().messages().map { ($0.topic, try HomeAssistantDiscoveryTests.json($0)) }
    }

    @Test func offUnlessDiscoveryIsOn() {
        var c = Self.configuration()
        c.homeAssistant.discovery = false
        #expect(Self.discovery(c).messages().isEmpty)
    }

    @Test func theBeaconsMainEntityIsItsRoomTrackerWithShortIDs() throws {
        let p = try Self.payloads()
        #expect(
            p.map { $0.json["default_entity_id"] as? String } == [
                "binary_sensor.beacon2mqtt_locator_loc1_connectivity", "device_tracker.keys", "sensor.keys_room",
                "sensor.keys_floor", "event.keys_location_change",
            ])
        let tracker = try #require(p.first { $0.topic.hasPrefix("homeassistant/device_tracker/") }?.json)
        #expect(tracker["name"] is NSNull, "name null: the device's main entity, named like the device")
        // HA's MQTT tracker takes a raw payload other than home/not_home as the location's name
        // (2025.4 ignores value_template there), so it reads the locator's plain-text room topic.
        #expect(tracker["state_topic"] as? String == "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/room")
        #expect(tracker["value_template"] == nil)
        // The room topic's `unknown` is HA's own unknown state (payload_reset is deprecated).
        #expect(tracker["payload_reset"] == nil)
        // Its attributes come from the location, which is published again only on a move or a new
        // confidence band (BeliefEngineTests), never every tick.
        #expect(
            tracker["json_attributes_topic"] as? String == "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/location")
        #expect(tracker["json_attributes_template"] as? String == HomeAssistantLocatorDiscovery.trackerAttributes)
        let room = try #require(p.first { $0.topic.hasSuffix("_room/config") }?.json)
        #expect((room["value_template"] as? String)?.contains("'unknown' if value_json.state == 'unknown'") == true)
    }

    @Test func everyBeaconEntityIsOnTheBeaconsDeviceThroughTheLocator() throws {
        let p = try Self.payloads()
        let locator = try #require(p.first?.json["device"] as? [String: Any])
        #expect(locator["identifiers"] as? [String] == ["beacon2mqtt_locator_loc1"])
        for (topic, json) in p.dropFirst() {
            let device = try #require(json["device"] as? [String: Any])
            #expect(
                device["identifiers"] as? [String] == ["beacon2mqtt_beacon_\(HomeAssistantDiscoveryTests.beaconKey)"])
            #expect(device["via_device"] as? String == "beacon2mqtt_locator_loc1", "\(topic)")
            #expect(
                json["availability"] as? [[String: String]] == [
                    [
                        "topic": "beacons/locators/loc1/status", "payload_available": "online",
                        "payload_not_available": "offline",
                    ]
                ])
            // Every locator publishes the same beacon configs.
            #expect(topic.contains("/beacon2mqtt_locator/"))
        }
    }

    /// Each entity listens on a topic the locator really publishes (its templates are rendered by a
    /// real Home Assistant in `make test-ha`).
    @Test func theTopicsAreTheLocatorsOwn() throws {
        var locator = Locator(
            settings: {
                var s = LocatorSettings()
                s.handOver.minDwell = .zero
                return s
            }(), publishesRoom: true)
        var out: [OutboundMessage] = []
        let reading =
            #"{"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":1,"name":"Keys","floor":"2","room":"office","accuracy":1.2,"timestamp":"2023-11-14T22:13:20.000Z"}"#
        locator.handle(topic: "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/proximity", payload: reading)
        locator.advance(to: Timestamp(microseconds: 1_700_000_010_000_000), into: &out)
        let topics = Set(out.map(\.topic))
        #expect(out.contains { $0.topic.hasSuffix("/1/1/room") && $0.payload.text == "office" && $0.retain })
        for (topic, json) in try Self.payloads().dropFirst() {
            #expect(topics.contains(json["state_topic"] as? String ?? ""), "\(topic)")
        }
        let event = try #require(try Self.payloads().first { $0.topic.hasPrefix("homeassistant/event/") }?.json)
        #expect(event["event_types"] as? [String] == ["location", "not_home"])
        #expect(out.contains { $0.topic.hasSuffix("/event") && $0.payload.text.contains(#""event":"location""#) })
        // The event's attributes: where the beacon is and was, read from fields the event really has.
        let template = try #require(event["value_template"] as? String)
        let sent = try #require(out.first { $0.topic.hasSuffix("/event") })
        let payload = try #require(
            try JSONSerialization.jsonObject(with: Data(sent.payload.text.utf8)) as? [String: Any])
        for field in ["room", "floor", "gateway", "previous_room", "previous_floor", "previous_gateway"] {
            #expect(template.contains("'\(field)': value_json.\(field)"), "\(field)")
            #expect(payload.keys.contains(field), "\(field)")
        }
    }

    /// Each shard's locator announces the beacons it decides, and together they announce them all.
    @Test func aShardAnnouncesItsOwnBeaconsOnly() {
        var c = Self.configuration()
        for minor in 2...12 {
            c.beacons.append(BeaconOverride(identity: Fixtures.beacon(UInt16(minor)), name: "tag\(minor)"))
        }
        let all = Set(Self.discovery(c).messages().map(\.topic))
        var union: Set<String> = []
        for k in 1...2 {
            var part = c
            part.locator.shard = LocatorShard(index: k, count: 2)
            let topics = Set(Self.discovery(part).messages().map(\.topic))
            #expect(topics.count < all.count)
            // The locator's own connectivity is in both; no beacon entity is.
            let beaconTopics = topics.filter { !$0.contains("connectivity") }
            #expect(union.isDisjoint(with: beaconTopics))
            union.formUnion(topics)
        }
        #expect(union == all)
    }

    @Test func birthRepublishesAndRemovalsClear() {
        let d = Self.discovery()
        #expect(d.birthTopic == "homeassistant/status")
        #expect(d.messages(onBirth: "online") == d.messages())
        #expect(d.messages(onBirth: "offline").isEmpty)
        #expect(d.removals().map(\.topic) == d.messages().map(\.topic))
    }
}
