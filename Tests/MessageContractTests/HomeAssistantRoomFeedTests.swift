import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import Settings
import TestFixtures
import Testing

/// The `mqtt_room` feed (home-assistant.io, "MQTT Room Presence"): the sensor subscribes to
/// `<state_topic>/+`, reads the room from the last level and a JSON payload with `id`, `name`, `distance`.
@Suite struct HomeAssistantRoomFeedTests {
    static func config(room: String?) -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.gateway.room = room
        return c
    }

    @Test func theFeedIsOffWithoutARoomTopic() {
        #expect(HomeAssistantRoomFeed(configuration: Self.config(room: "kitchen"), settings: .init()) == nil)
        #expect(
            HomeAssistantRoomFeed(configuration: Self.config(room: "kitchen"), settings: .init(roomTopic: "")) == nil)
    }

    @Test func theRoomIsTheLastTopicLevelFallingBackToTheGatewayID() throws {
        let settings = HomeAssistantSettings(roomTopic: "room_presence")
        #expect(
            HomeAssistantRoomFeed(configuration: Self.config(room: "kitchen"), settings: settings)?.topic
                == "room_presence/kitchen")
        #expect(
            HomeAssistantRoomFeed(configuration: Self.config(room: nil), settings: settings)?.topic
                == "room_presence/gw1")
    }

    @Test func payloadHasTheKeysMqttRoomReads() throws {
        let feed = try #require(
            HomeAssistantRoomFeed(
                configuration: Self.config(room: "kitchen"), settings: .init(roomTopic: "room_presence")))
        let m = try #require(feed.message(identity: Fixtures.beacon(7, major: 3), name: "keys", distance: 1.234))
        let p = try #require(JSONSerialization.jsonObject(with: Data(m.payload.text.utf8)) as? [String: Any])
        #expect(Set(p.keys) == ["id", "name", "distance"])
        #expect(p["id"] as? String == "e2c56db5-dffb-48d2-b060-d0f5a71096e0-3-7")
        #expect(p["name"] as? String == "keys")
        #expect(p["distance"] as? Double == 1.23)
        #expect(m.topic == "room_presence/kitchen" && m.qos == 0 && !m.retain)
    }

    @Test func anUnnamedBeaconIsNamedByItsIDAndUnknownDistancesAreNotSent() throws {
        let feed = try #require(
            HomeAssistantRoomFeed(configuration: Self.config(room: nil), settings: .init(roomTopic: "rp")))
        let m = try #require(feed.message(identity: Fixtures.beacon(1), name: nil, distance: 0))
        #expect(m.payload.text.contains("\"name\":\"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1\""))
        #expect(feed.message(identity: Fixtures.beacon(1), name: nil, distance: -1) == nil)
    }
}
