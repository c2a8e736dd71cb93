import BeaconCore
import GatewayPipeline
import MessageContract
import Settings
import TestFixtures
import Testing

/// The monitor publishes a room-feed message beside each proximity message when configured.
@Suite struct RoomFeedInTheMonitorTests {
    @Test func everyPublishedProximityHasItsRoomFeedMessage() throws {
        var config = Fixtures.regionConfig()
        config.gateway.room = "kitchen"
        config.homeAssistant.roomTopic = "room_presence"
        var h = MessageHarness(config)
        h.see(Fixtures.sighting(Fixtures.beacon(1), at: 0.1, rssi: -59))
        let messages = h.advance(1)
        let proximity = messages.filter { $0.kind == .proximity && $0.topic.hasSuffix("/proximity") }
        let feed = messages.filter { $0.topic == "room_presence/kitchen" }
        #expect(proximity.count == 1)
        #expect(feed.count == proximity.count)
        let payload = try #require(feed.first?.payload.text)
        #expect(payload.contains(#""id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1""#))
        #expect(feed.first?.retain == false)
    }

    @Test func withoutARoomTopicNoFeedIsPublished() {
        var h = MessageHarness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(Fixtures.beacon(1), at: 0.1, rssi: -59))
        #expect(!h.advance(1).contains { $0.topic.hasPrefix("room_presence") })
    }
}
