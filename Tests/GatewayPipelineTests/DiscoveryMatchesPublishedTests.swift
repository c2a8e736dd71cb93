import BeaconCore
import Foundation
import GatewayPipeline
import MessageContract
import Settings
import TestFixtures
import Testing

/// Home Assistant discovery against what the pipeline really publishes: the fields an entity's
/// template reads, and the topics its state comes from.
@Suite struct DiscoveryMatchesPublishedTests {
    static func discovery(_ c: Configuration) -> HomeAssistantDiscovery {
        HomeAssistantDiscovery(
            configuration: c, settings: HomeAssistantSettings(discovery: true), softwareVersion: "9.9.9")
    }

    static func json(_ m: OutboundMessage) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(m.payload.text.utf8)) as? [String: Any])
    }

    static func component(_ m: OutboundMessage) -> String { String(m.topic.split(separator: "/")[1]) }

    @Test func eventEntitiesOfferEnterAndExitWithTheGatewaysPlace() throws {
        let c = Fixtures.discoveryConfig()
        let events = try Self.discovery(c).messages().filter { Self.component($0) == "event" }.map(Self.json)
        #expect(events.count == 2)
        // The fields the template reads are in the event payload the gateway really sends.
        var monitor = Pipeline(configuration: c, start: Fixtures.t0)
        var published: [OutboundMessage] = []
        monitor.observe(Fixtures.sighting(Fixtures.beacon(1), at: 0.2), into: &published)
        let sent = try #require(
            published.first { $0.kind == .event && $0.topic.hasSuffix("/1/1/\(c.gateway.id)/event") })
        let payload = try #require(
            try JSONSerialization.jsonObject(with: Data(sent.payload.text.utf8)) as? [String: Any])
        for e in events {
            #expect(e["event_types"] as? [String] == ["enter", "exit"])
            // HA's MQTT event wants {"event_type": …}; our payload names it "event". The gateway's
            // place goes along, the same on every event (no RSSI or times: a row each).
            #expect(
                e["value_template"] as? String
                    == "{{ {'event_type': value_json.event, 'room': value_json.room, 'floor': value_json.floor, "
                    + "'gateway': value_json.gateway} | tojson }}")
            for field in ["event", "room", "floor", "gateway"] { #expect(payload.keys.contains(field), "\(field)") }
            #expect(e["json_attributes_topic"] == nil, "the 350-byte payload is not repeated as attributes")
        }
    }

    @Test func everyStateTopicIsOneTheGatewayActuallyPublishes() throws {
        var c = Fixtures.discoveryConfig()
        c.ranging.publish.rangingList = true
        var monitor = Pipeline(configuration: c, start: Fixtures.t0)
        var published: [OutboundMessage] = []
        monitor.observe(Fixtures.sighting(Fixtures.beacon(1), at: 0.2), into: &published)
        monitor.advance(to: Fixtures.at(1), into: &published)
        monitor.advance(to: Fixtures.at(30), into: &published)
        let tree = TopicTree(c)
        // A locator hearing it reports its clock (`GatewayClocks`).
        var locator = Locator()
        var reported: [OutboundMessage] = []
        for m in published { locator.handle(topic: m.topic, payload: m.payload.text, received: Fixtures.at(30)) }
        locator.advance(to: Fixtures.at(30), into: &reported)
        #expect(reported.contains { $0.topic == tree.gatewayClock })
        // The agent's own: status (its will and connect message) and the stats document.
        let topics = Set((published + reported).map(\.topic) + [tree.gatewayStatus, tree.gatewayStats])
        for m in Self.discovery(c).messages() {
            let p = try Self.json(m)
            let state = try #require(p["state_topic"] as? String)
            #expect(topics.contains(state), "\(m.topic) listens on \(state), which nothing publishes")
            for a in p["availability"] as? [[String: String]] ?? [] { #expect(topics.contains(a["topic"] ?? "")) }
        }
    }
}
