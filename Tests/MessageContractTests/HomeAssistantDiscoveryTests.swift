import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import TestFixtures
import Testing

/// Discovery payloads checked against Home Assistant's MQTT documentation (home-assistant.io,
/// "MQTT Discovery", "MQTT Sensor", "MQTT Device Tracker", "MQTT Event") rather than against our
/// own output.
@Suite struct HomeAssistantDiscoveryTests {
    /// Keys HA marks REQUIRED per platform, plus those device-based discovery needs:
    /// a device is only attached when `unique_id` is set ("MQTT Discovery" → device).
    static let requiredKeys: [String: Set<String>] = [
        "device_tracker": ["state_topic"],  // required when the state comes from a topic, as ours does
        "sensor": ["state_topic"],
        "event": ["state_topic", "event_types"],
    ]
    static let deviceBasedKeys: Set<String> = ["unique_id", "device", "availability"]
    /// HA's discovery topic: `<discovery_prefix>/<component>/[<node_id>/]<object_id>/config`, ids in [a-zA-Z0-9_-].
    static var topicPattern: Regex<(Substring, Substring)> {
        #/^homeassistant/(device_tracker|sensor|event)/[A-Za-z0-9_-]+/[A-Za-z0-9_-]+/config$/#
    }

    static func configuration() -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.gateway.room = "kitchen"
        c.beacons = [BeaconOverride(identity: Fixtures.beacon(1), name: "keys")]
        c.regions = [BeaconRegion(name: "office", uuid: Fixtures.uuidA)]
        return c
    }

    static func discovery(_ c: Configuration = configuration(), enabled: Bool = true) -> HomeAssistantDiscovery {
        HomeAssistantDiscovery(
            configuration: c, settings: HomeAssistantSettings(discovery: enabled), softwareVersion: "9.9.9")
    }

    static func json(_ m: OutboundMessage) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(m.payload.text.utf8)) as? [String: Any])
    }

    static func component(_ m: OutboundMessage) -> String { String(m.topic.split(separator: "/")[1]) }

    @Test func discoveryIsOffUnlessEnabled() {
        #expect(Self.discovery(enabled: false).messages().isEmpty)
        #expect(HomeAssistantSettings().discovery == false)
        #expect(HomeAssistantSettings().prefix == "homeassistant")
        #expect(HomeAssistantSettings().roomTopic == nil)
    }

    @Test func eachBeaconAndRegionGetsTrackerDistanceProximityAndEvent() throws {
        let messages = Self.discovery().messages()
        #expect(messages.count == 8)
        for subject in ["e2c56db5dffb48d2b060d0f5a71096e0_1_1", "region_office"] {
            let mine = messages.filter { $0.topic.contains("/\(subject)") }
            #expect(mine.map(Self.component).sorted() == ["device_tracker", "event", "sensor", "sensor"], "\(subject)")
        }
    }

    @Test func everyPayloadHasHAsRequiredKeysAndIsRetainedDiscovery() throws {
        let messages = Self.discovery().messages()
        #expect(!messages.isEmpty)
        var uniqueIDs: Set<String> = []
        for m in messages {
            #expect(m.topic.wholeMatch(of: Self.topicPattern) != nil, "\(m.topic)")
            #expect(m.retain && m.kind == .discovery && m.qos == 1)
            let payload = try Self.json(m)
            let required = try #require(Self.requiredKeys[Self.component(m)]).union(Self.deviceBasedKeys)
            #expect(required.isSubset(of: Set(payload.keys)), "\(m.topic) lacks \(required.subtracting(payload.keys))")
            let unique = try #require(payload["unique_id"] as? String)
            #expect(uniqueIDs.insert(unique).inserted, "duplicate unique_id \(unique)")
            let device = try #require(payload["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["beacon2mqtt_gw1"])  // one device per gateway
            #expect(device["sw_version"] as? String == "9.9.9")
        }
    }

    @Test func availabilityFollowsTheGatewayStatusTopic() throws {
        for m in Self.discovery().messages() {
            let availability = try #require(try Self.json(m)["availability"] as? [[String: String]])
            #expect(
                availability == [
                    [
                        "topic": "beacons/gateways/gw1/status", "payload_available": "online",
                        "payload_not_available": "offline",
                    ]
                ])
        }
    }

    @Test func trackersAreBluetoothLEHomeWhenInside() throws {
        let trackers = Self.discovery().messages().filter { Self.component($0) == "device_tracker" }
        #expect(trackers.count == 2)
        for m in trackers {
            let p = try Self.json(m)
            #expect(p["source_type"] as? String == "bluetooth_le")
            #expect(p["payload_home"] as? String == RegionState.inside.rawValue)
            #expect(p["payload_not_home"] as? String == RegionState.outside.rawValue)
            #expect((p["state_topic"] as? String)?.hasSuffix("/gw1/state") == true)
        }
        let beacon = try Self.json(try #require(trackers.first { $0.topic.contains("_1_1/") }))
        #expect(beacon["name"] as? String == "keys")
        #expect(beacon["state_topic"] as? String == "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/state")
    }

    @Test func distanceIsMetresMeasurementAndProximityIsAnEnumOfTheContractValues() throws {
        let sensors = try Self.discovery().messages().filter { Self.component($0) == "sensor" }.map(Self.json)
        let distances = sensors.filter { $0["device_class"] as? String == "distance" }
        let proximities = sensors.filter { $0["device_class"] as? String == "enum" }
        #expect(distances.count == 2 && proximities.count == 2)
        for d in distances {
            #expect(d["unit_of_measurement"] as? String == "m")
            #expect(d["state_class"] as? String == "measurement")
        }
        for p in proximities {
            // README, “Messages, monitoring and ranging”: proximity is one of unknown, immediate, near, far.
            #expect(p["options"] as? [String] == ["unknown", "immediate", "near", "far"])
            #expect(p["state_class"] == nil)  // HA rejects a state_class on enum sensors
        }
    }

    @Test func eventEntitiesOfferEnterAndExitAndMapOurEventKey() throws {
        let events = try Self.discovery().messages().filter { Self.component($0) == "event" }.map(Self.json)
        #expect(events.count == 2)
        for e in events {
            #expect(e["event_types"] as? [String] == ["enter", "exit"])
            // HA's MQTT event wants {"event_type": …}; our event payload names it "event".
            #expect((e["value_template"] as? String)?.contains("\"event_type\"") == true)
            #expect((e["value_template"] as? String)?.contains("value_json.event ") == true)
        }
    }

    @Test func everyStateTopicIsOneTheMonitorActuallyPublishes() throws {
        var c = Self.configuration()
        c.ranging.publish.rangingList = true
        var monitor = Pipeline(configuration: c, start: Fixtures.t0)
        var published: [OutboundMessage] = []
        monitor.observe(Fixtures.sighting(Fixtures.beacon(1), at: 0.2), into: &published)
        monitor.advance(to: Fixtures.at(1), into: &published)
        monitor.advance(to: Fixtures.at(30), into: &published)
        let topics = Set(published.map(\.topic))
        for m in Self.discovery(c).messages() {
            let p = try Self.json(m)
            let state = try #require(p["state_topic"] as? String)
            #expect(topics.contains(state), "\(m.topic) listens on \(state), which nothing publishes")
            if let attributes = p["json_attributes_topic"] as? String { #expect(topics.contains(attributes)) }
        }
    }

    @Test func withoutPerBeaconMonitoringBeaconsGetNoTrackerOrEvent() {
        var c = Self.configuration()
        c.monitoring.perBeacon = false
        let beacon = Self.discovery(c).messages().filter { $0.topic.contains("_1_1") }
        #expect(beacon.map(Self.component).sorted() == ["sensor", "sensor"])
    }

    @Test func birthOnlineRepublishesEverythingAndOtherPayloadsNothing() {
        let d = Self.discovery()
        #expect(d.birthTopic == "homeassistant/status")
        #expect(d.messages(onBirth: "online") == d.messages())
        #expect(d.messages(onBirth: "offline").isEmpty)
    }

    @Test func oddGatewayIDsAreSanitizedInTopicsButNotInAvailability() throws {
        var c = Self.configuration()
        c.gateway.id = "hall.gw 2"
        let d = Self.discovery(c)
        let m = try #require(d.messages().first)
        #expect(m.topic.contains("/hall_gw_2/"))
        #expect(m.topic.wholeMatch(of: Self.topicPattern) != nil)
        #expect(d.availabilityTopic == "beacons/gateways/hall.gw 2/status")
    }

    @Test func removalsClearTheSameTopicsWithEmptyRetainedPayloads() {
        let d = Self.discovery()
        let removals = d.removals()
        #expect(removals.map(\.topic) == d.messages().map(\.topic))
        #expect(removals.allSatisfy { $0.payload.text.isEmpty && $0.retain })
    }

    @Test func eddystoneBeaconsUseNamespaceAndInstanceIDs() throws {
        var c = Self.configuration()
        let id = BeaconIdentity.eddystone(BeaconID128(high: 0x0011_2233_4455_6677, low: 0x8899_aabb_ccdd_eeff))
        c.beacons = [BeaconOverride(identity: id)]
        c.regions = []
        let m = Self.discovery(c).messages()
        #expect(m.count == 4)
        #expect(m.allSatisfy { $0.topic.contains("/00112233445566778899_aabbccddeeff") })
    }
}
