import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import Settings
import TestFixtures
import Testing

/// A phone from `devices:` is a Home Assistant device with a tracker, whatever per_beacon says, on
/// the device's own topics; the locator adds its room tracker on `<base>/devices/<name>/location`.
@Suite struct HomeAssistantDeviceDiscoveryTests {
    static func configuration() -> Configuration {
        var c = HomeAssistantDiscoveryTests.configuration()
        c.monitoring.perBeacon = false
        c.devices = [
            DeviceSettings(
                name: "alice-phone",
                identification: .irk(IdentityResolvingKey(text: "ec0234a357c8ad05341010a60a397d9b")!))
        ]
        return c
    }

    static func phoneConfigs(_ messages: [OutboundMessage]) throws -> [(topic: String, json: [String: Any])] {
        try messages.map { ($0.topic, try HomeAssistantDiscoveryTests.json($0)) }.filter { entry in
            (entry.1["device"] as? [String: Any])?["identifiers"] as? [String] == ["beacon2mqtt_device_alice-phone"]
        }
    }

    @Test func theGatewayGivesThePhoneATrackerOnItsDeviceTopics() throws {
        let phone = try Self.phoneConfigs(HomeAssistantDiscoveryTests.discovery(Self.configuration()).messages())
        #expect(phone.count == 4)
        let tracker = try #require(phone.first { $0.topic.hasPrefix("homeassistant/device_tracker/") }?.json)
        #expect(tracker["state_topic"] as? String == "beacons/devices/alice-phone/gw1/state")
        #expect(tracker["payload_home"] as? String == "inside" && tracker["payload_not_home"] as? String == "outside")
        #expect(tracker["source_type"] as? String == "bluetooth_le")
        #expect(tracker["default_entity_id"] as? String == "device_tracker.alice_phone_kitchen")
        let device = try #require(tracker["device"] as? [String: Any])
        #expect(device["name"] as? String == "alice-phone")
        #expect(device["via_device"] as? String == "beacon2mqtt_gateway_gw1")
        #expect(device["suggested_area"] == nil)
        let distance = try #require(
            phone.first { ($0.json["default_entity_id"] as? String)?.hasSuffix("_distance") == true })
        #expect(distance.json["state_topic"] as? String == "beacons/devices/alice-phone/gw1/proximity")
        // The beacon, with per_beacon off, has no tracker; the phone is monitored regardless.
        let all = try HomeAssistantDiscoveryTests.entityIDs(HomeAssistantDiscoveryTests.discovery(Self.configuration()))
        #expect(!all.contains("device_tracker.keys_kitchen"))
    }

    @Test func theLocatorGivesThePhoneItsRoomTracker() throws {
        var c = Self.configuration()
        c.gateway.id = "loc1"
        c.homeAssistant.discovery = true
        let phone = try Self.phoneConfigs(
            HomeAssistantLocatorDiscovery(configuration: c, softwareVersion: "9.9.9").messages())
        let tracker = try #require(phone.first { $0.topic.hasPrefix("homeassistant/device_tracker/") }?.json)
        #expect(tracker["default_entity_id"] as? String == "device_tracker.alice_phone")
        // The locator's plain-text room topic (HA's MQTT tracker takes the raw payload as the location).
        #expect(tracker["state_topic"] as? String == "beacons/devices/alice-phone/room")
        #expect(
            phone.allSatisfy {
                ($0.json["state_topic"] as? String)?.hasPrefix("beacons/devices/alice-phone/") == true
                    || ($0.json["state_topic"] as? String)?.hasPrefix("beacons/locators/") == true
            })
    }
}

extension HomeAssistantDeviceDiscoveryTests {
    @Test func theRoomFeedNamesAPhoneByItsName() throws {
        var c = Self.configuration()
        c.homeAssistant.roomTopic = "room_presence"
        let feed = try #require(HomeAssistantRoomFeed(configuration: c, settings: c.homeAssistant))
        let m = try #require(feed.message(identity: .device(named: "alice-phone"), name: "alice-phone", distance: 1.5))
        #expect(m.topic == "room_presence/Kitchen")
        #expect(m.payload.text == #"{"id":"alice-phone","name":"alice-phone","distance":1.5}"#)
    }
}
