import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import Settings
import TestFixtures
import Testing

/// Discovery payloads checked against Home Assistant's MQTT documentation (home-assistant.io,
/// "MQTT Discovery", "MQTT Sensor", "MQTT Binary sensor", "MQTT Device Tracker", "MQTT Event")
/// rather than against our own output. `make test-ha` checks them against a real Home Assistant.
@Suite struct HomeAssistantDiscoveryTests {
    /// Keys HA marks REQUIRED per platform, plus those device-based discovery needs:
    /// a device is only attached when `unique_id` is set ("MQTT Discovery" → device).
    static let requiredKeys: [String: Set<String>] = [
        "device_tracker": ["state_topic"],  // required when the state comes from a topic, as ours does
        "sensor": ["state_topic"],
        "binary_sensor": ["state_topic"],
        "event": ["state_topic", "event_types"],
    ]
    static let deviceBasedKeys: Set<String> = ["unique_id", "device"]
    /// HA's discovery topic: `<discovery_prefix>/<component>/[<node_id>/]<object_id>/config`, ids in [a-zA-Z0-9_-].
    static var topicPattern: Regex<(Substring, Substring)> {
        #/^homeassistant/(device_tracker|sensor|binary_sensor|event)/[A-Za-z0-9_-]+/[A-Za-z0-9_-]+/config$/#
    }
    static let beaconKey = "e2c56db5dffb48d2b060d0f5a71096e0_1_1"

    static func configuration() -> Configuration { Fixtures.discoveryConfig() }

    static func discovery(
        _ c: Configuration = configuration(), enabled: Bool = true, gatewayEntities: Bool? = nil
    ) -> HomeAssistantDiscovery {
        HomeAssistantDiscovery(
            configuration: c, settings: HomeAssistantSettings(discovery: enabled, gatewayEntities: gatewayEntities),
            softwareVersion: "9.9.9")
    }

    static func json(_ m: OutboundMessage) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(m.payload.text.utf8)) as? [String: Any])
    }

    static func component(_ m: OutboundMessage) -> String { String(m.topic.split(separator: "/")[1]) }

    static func payloads(_ d: HomeAssistantDiscovery) throws -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for m in d.messages() { out[m.topic] = try json(m) }
        return out
    }

    static func entityIDs(_ d: HomeAssistantDiscovery) throws -> [String] {
        try d.messages().map { try #require(try json($0)["default_entity_id"] as? String) }
    }

    @Test func discoveryIsOffUnlessEnabled() {
        #expect(Self.discovery(enabled: false).messages().isEmpty)
        #expect(Self.discovery(enabled: false).legacyRemovals().isEmpty)
        #expect(HomeAssistantSettings().discovery == false)
        #expect(HomeAssistantSettings().prefix == "homeassistant")
        #expect(HomeAssistantSettings().roomTopic == nil)
        #expect(HomeAssistantSettings().gatewayEntities == nil)
    }

    /// Issue #16: short ids named after the configured beacon and the gateway's room, the same on
    /// every HA release (HA builds them from device name + entity name; newer ones read default_entity_id).
    @Test func entityIDsAreShortAndNamedAfterTheBeaconAndTheRoom() throws {
        #expect(
            try Self.entityIDs(Self.discovery()) == [
                "binary_sensor.beacon2mqtt_gw1_connectivity", "binary_sensor.beacon2mqtt_gw1_problem",
                "sensor.beacon2mqtt_gw1_reports_per_second", "sensor.beacon2mqtt_gw1_beacons_tracked",
                "sensor.beacon2mqtt_gw1_dropped_messages", "sensor.beacon2mqtt_gw1_started",
                "sensor.beacon2mqtt_gw1_clock_offset",
                "sensor.beacon2mqtt_gw1_scan_mode", "sensor.beacon2mqtt_gw1_adapter",
                "device_tracker.keys_kitchen", "event.keys_kitchen_enter_exit", "sensor.keys_kitchen_proximity",
                "sensor.keys_kitchen_distance",
                "device_tracker.beacon2mqtt_gw1_office", "event.beacon2mqtt_gw1_office_enter_exit",
                "sensor.beacon2mqtt_gw1_office_nearest_proximity", "sensor.beacon2mqtt_gw1_office_nearest_distance",
            ])
        for m in Self.discovery().messages() {
            let p = try Self.json(m)
            #expect(p["object_id"] == nil, "object_id is deprecated (HA 2025.10) and gone in 2026.4")
            #expect(p["has_entity_name"] == nil, "not an MQTT option: MQTT entities always use entity naming")
        }
    }

    @Test func eachBeaconIsOneDeviceReachedThroughTheGateway() throws {
        let payloads = try Self.payloads(Self.discovery())
        let beacon = payloads.filter { $0.key.contains(Self.beaconKey) }
        #expect(beacon.count == 4)
        for (_, p) in beacon {
            let device = try #require(p["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["beacon2mqtt_beacon_\(Self.beaconKey)"])
            #expect(device["name"] as? String == "Keys")
            #expect(device["via_device"] as? String == "beacon2mqtt_gateway_gw1")
            #expect(device["suggested_area"] == nil, "a beacon moves; it must not take the gateway's area")
        }
        for (_, p) in payloads.filter({ !$0.key.contains(Self.beaconKey) }) {
            let device = try #require(p["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["beacon2mqtt_gateway_gw1"])
            #expect(device["name"] as? String == "beacon2mqtt gw1")
            #expect(device["suggested_area"] as? String == "Kitchen")
            #expect(device["sw_version"] as? String == "9.9.9")
        }
    }

    @Test func theGatewaysDeviceComesBeforeAnyBeaconThatNamesIt() {
        let topics = Self.discovery().messages().map(\.topic)
        let firstBeacon = topics.firstIndex { $0.contains(Self.beaconKey) } ?? 0
        let gatewayOnes = topics.indices.filter {
            !topics[$0].contains(Self.beaconKey) && !topics[$0].contains("region")
        }
        #expect(firstBeacon > 0 && gatewayOnes.allSatisfy { $0 < firstBeacon })
    }

    @Test func everyPayloadHasHAsRequiredKeysAndIsRetainedDiscovery() throws {
        let messages = Self.discovery().messages()
        var uniqueIDs: Set<String> = []
        for m in messages {
            #expect(m.topic.wholeMatch(of: Self.topicPattern) != nil, "\(m.topic)")
            #expect(m.retain && m.kind == .discovery && m.qos == 1)
            let payload = try Self.json(m)
            let required = try #require(Self.requiredKeys[Self.component(m)]).union(Self.deviceBasedKeys)
            #expect(required.isSubset(of: Set(payload.keys)), "\(m.topic) lacks \(required.subtracting(payload.keys))")
            let unique = try #require(payload["unique_id"] as? String)
            #expect(uniqueIDs.insert(unique).inserted, "duplicate unique_id \(unique)")
            #expect((payload["origin"] as? [String: Any])?["name"] as? String == "beacon2mqtt")
        }
    }

    @Test func distanceAndProximityGoUnavailableWhenTheBeaconLeavesOrTheGatewayGoesOffline() throws {
        let payloads = try Self.payloads(Self.discovery())
        let online = [
            "topic": "beacons/gateways/gw1/status", "payload_available": "online", "payload_not_available": "offline",
        ]
        let inside = [
            "topic": "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/state", "payload_available": "inside",
            "payload_not_available": "outside",
        ]
        for suffix in ["_distance", "_proximity"] {
            let p = try #require(payloads.first { $0.key.hasSuffix("_1_1\(suffix)/config") }?.value)
            #expect(p["availability"] as? [[String: String]] == [online, inside])
            #expect(p["availability_mode"] as? String == "all")
            // Two 30 s heartbeats and 5 s: a still beacon is refreshed, a silent one expires, and HA
            // restores the last value across its own restart.
            #expect(p["expire_after"] as? Int == 65)
        }
        for (topic, p) in payloads
        where !topic.contains("_distance") && !topic.contains("_proximity") && !topic.contains("connectivity") {
            #expect(p["availability"] as? [[String: String]] == [online], "\(topic)")
        }
        let connectivity = try #require(payloads.first { $0.key.hasSuffix("/connectivity/config") }?.value)
        #expect(connectivity["availability"] == nil)
        #expect(connectivity["state_topic"] as? String == "beacons/gateways/gw1/status")
        #expect(connectivity["device_class"] as? String == "connectivity")
        #expect(connectivity["entity_category"] as? String == "diagnostic")
    }

    @Test func trackersAreBluetoothLEHomeWhenInsideWithoutAttributes() throws {
        let trackers = Self.discovery().messages().filter { Self.component($0) == "device_tracker" }
        #expect(trackers.count == 2)
        for m in trackers {
            let p = try Self.json(m)
            #expect(p["source_type"] as? String == "bluetooth_le")
            #expect(p["payload_home"] as? String == RegionState.inside.rawValue)
            #expect(p["payload_not_home"] as? String == RegionState.outside.rawValue)
            #expect((p["state_topic"] as? String)?.hasSuffix("/gw1/state") == true)
            // Attributes on another topic would be a second recorder row per transition.
            #expect(p["json_attributes_topic"] == nil)
        }
        let beaconTracker = try #require(trackers.first { $0.topic.contains("_1_1_") })
        let beacon = try Self.json(beaconTracker)
        #expect(beacon["name"] as? String == "Kitchen")
        #expect(beacon["state_topic"] as? String == "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/state")
    }

    @Test func noisySensorsAreOffByDefaultAndStatisticsOnlyWhereTheyMeanSomething() throws {
        var c = Self.configuration()
        c.ranging.publish.rangingList = true
        let payloads = try Self.payloads(Self.discovery(c))
        let disabled = payloads.filter { $0.value["enabled_by_default"] as? Bool == false }.map(\.key).sorted()
        #expect(
            disabled == [
                "homeassistant/sensor/beacon2mqtt_gw1/\(Self.beaconKey)_distance/config",
                "homeassistant/sensor/beacon2mqtt_gw1/region_office_nearest_distance/config",
                "homeassistant/sensor/beacon2mqtt_gw1/region_office_nearest_proximity/config",
            ])
        let withStatistics = payloads.compactMap { t, p in
            (p["state_class"] as? String).map { "\(t.split(separator: "/")[3]) \($0)" }
        }
        #expect(
            withStatistics.sorted() == [
                "beacons_tracked measurement", "clock_offset measurement", "dropped total_increasing",
                "reports_per_s measurement",
            ])
        for (topic, p) in payloads where p["device_class"] as? String == "distance" {
            #expect(p["unit_of_measurement"] as? String == "m", "\(topic)")
            #expect((p["value_template"] as? String)?.contains("* 2) | round / 2") == true, "0.5 m deadband: \(topic)")
        }
        for (_, p) in payloads where p["device_class"] as? String == "enum" {
            // docs/topics.md, "Payloads": proximity is one of unknown, immediate, near, far.
            #expect(p["options"] as? [String] == ["unknown", "immediate", "near", "far"])
        }
        let diagnostics = payloads.filter { $0.value["entity_category"] as? String == "diagnostic" }
        #expect(diagnostics.count == 9)
        // Trackers take HA's own icon for their source type.
        let others = payloads.filter { !$0.key.contains("/device_tracker/") }.values
        #expect(
            others.allSatisfy { p in p["icon"] != nil || p["device_class"] != nil }, "an icon or a device class each")
    }

    @Test func withoutPerBeaconMonitoringBeaconsGetNoTrackerOrEvent() {
        var c = Self.configuration()
        c.monitoring.perBeacon = false
        let beacon = Self.discovery(c).messages().filter { $0.topic.contains("_1_1") }
        #expect(beacon.map(Self.component).sorted() == ["sensor", "sensor"])
    }

    @Test func gatewayEntitiesAreOffWhenTheLocatorRunsHereOrWhenSaidSo() {
        var c = Self.configuration()
        c.locator.enabled = true
        #expect(!Self.discovery(c).messages().contains { $0.topic.contains(Self.beaconKey) })
        #expect(Self.discovery(c, gatewayEntities: true).messages().contains { $0.topic.contains(Self.beaconKey) })
        #expect(!Self.discovery(gatewayEntities: false).messages().contains { $0.topic.contains(Self.beaconKey) })
        #expect(Self.discovery(gatewayEntities: false).messages().count == 13)  // 9 diagnostics, the region's 4
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
        #expect(m.topic.contains("/beacon2mqtt_hall_gw_2/"))
        #expect(m.topic.wholeMatch(of: Self.topicPattern) != nil)
        #expect(d.availabilityTopic == "beacons/gateways/hall.gw 2/status")
    }

    @Test func removalsClearTheSameTopicsWithEmptyRetainedPayloads() {
        let d = Self.discovery()
        let removals = d.removals()
        #expect(removals.map(\.topic) == d.messages().map(\.topic))
        #expect(removals.allSatisfy { $0.payload.text.isEmpty && $0.retain })
    }

    /// Configs of releases with one device per gateway sat at `<prefix>/<component>/<gw>/<object>`.
    @Test func theOldPerGatewayConfigsAreClearedAndNeverCollideWithTheNewOnes() {
        let d = Self.discovery()
        let legacy = d.legacyRemovals()
        #expect(legacy.count == 8)
        #expect(legacy.contains { $0.topic == "homeassistant/device_tracker/gw1/\(Self.beaconKey)/config" })
        #expect(legacy.contains { $0.topic == "homeassistant/sensor/gw1/region_office_distance/config" })
        #expect(legacy.allSatisfy { $0.payload.text.isEmpty && $0.retain })
        #expect(Set(legacy.map(\.topic)).isDisjoint(with: d.messages().map(\.topic)))
    }

    @Test func eddystoneBeaconsUseNamespaceAndInstanceIDs() throws {
        var c = Self.configuration()
        let id = BeaconIdentity.eddystone(BeaconID128(high: 0x0011_2233_4455_6677, low: 0x8899_aabb_ccdd_eeff))
        c.beacons = [BeaconOverride(identity: id)]
        c.regions = []
        let beacon = Self.discovery(c).messages().filter { $0.topic.contains("/00112233445566778899_aabbccddeeff_") }
        #expect(beacon.count == 4)
        let first = try #require(beacon.first)
        let device = try #require(try Self.json(first)["device"] as? [String: Any])
        #expect(device["name"] as? String == "Eddystone aabbccddeeff")
        #expect(device["model"] as? String == "Eddystone-UID beacon")
    }

    @Test func slugsFollowHomeAssistantsSlugifyForASCIIAndStepAsideOtherwise() {
        #expect(HomeAssistantDevice.slug("Keys  Hall distance") == "keys_hall_distance")
        #expect(HomeAssistantDevice.slug("beacon2mqtt gw-1.a") == "beacon2mqtt_gw_1_a")
        #expect(HomeAssistantDevice.slug("--Bike!") == "bike")
        #expect(HomeAssistantDevice.slug("Schlüssel") == nil)
        var c = Self.configuration()
        c.beacons = [BeaconOverride(identity: Fixtures.beacon(1), name: "Schlüssel")]
        let beacon = Self.discovery(c).messages().filter { $0.topic.contains(Self.beaconKey) }
        #expect(beacon.allSatisfy { !$0.payload.text.contains("default_entity_id") })
    }
}
