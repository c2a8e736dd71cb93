import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Testing
import Vocabulary

/// `locator.shard`: n locators, each fed every message, together publish what one locator does,
/// each beacon by exactly one of them.
@Suite struct LocatorShardingTests {
    static let gateways: [(id: String, floor: String, room: String)] = [
        ("A", "1", "hall"), ("B", "1", "kitchen"), ("C", "2", "office"),
    ]

    /// 40 beacons heard by the three gateways for 3 minutes, each moving between them; exit events,
    /// and retained locations read back at the start for some.
    static func messages() -> [(topic: String, payload: String, at: Double)] {
        var rng = SeededRandom(state: 3)
        var out: [(String, String, Double)] = []
        let tree = TopicTree(base: "beacons")
        for minor in 1...UInt16(40) {
            let b = Fixtures.beacon(minor)
            let path = String(tree.location(b).dropLast("/location".count))
            if minor % 5 == 0 {
                let g = gateways[Int(minor) % 3]
                out.append(
                    (
                        "\(path)/location",
                        #"{"gateway":"\#(g.id)","floor":"\#(g.floor)","room":"\#(g.room)","accuracy":2,"since":"\#(Fixtures.at(-30).rfc3339)","confidence":0.5,"state":"home","last_seen":"\#(Fixtures.at(-31).rfc3339)"}"#,
                        0
                    ))
            }
            for second in 0..<180 {
                let near = (Int(minor) + second / 40) % 3
                for (i, g) in gateways.enumerated() where rng.next() % 4 != 0 {
                    let metres = (i == near ? 1.0 : 4.0) + Double(rng.next() % 30) / 10
                    let at = Double(second) + Double(rng.next() % 900) / 1000
                    out.append(
                        (
                            "\(path)/\(g.id)/proximity",
                            #"{"uuid":"\#(b.id.uuidString)","major":1,"minor":\#(minor),"gateway":"\#(g.id)","floor":"\#(g.floor)","room":"\#(g.room)","rssi":-70,"rssi_filtered":null,"measured_power":-59,"accuracy":\#(metres),"proximity":"near","timestamp":"\#(Fixtures.at(at).rfc3339)"}"#,
                            at
                        ))
                }
                if second == 100, minor % 7 == 0 {
                    out.append(
                        (
                            "\(path)/B/event",
                            #"{"event":"exit","uuid":"\#(b.id.uuidString)","major":1,"minor":\#(minor),"timestamp":"\#(Fixtures.at(100.5).rfc3339)"}"#,
                            100.5
                        ))
                }
            }
        }
        return out.sorted { $0.2 < $1.2 }
    }

    static func run(
        _ shard: LocatorShard?, _ input: [(topic: String, payload: String, at: Double)], engine: LocatorSettings.Engine
    ) -> (Locator, [OutboundMessage]) {
        var settings = LocatorSettings()
        settings.engine = engine
        settings.shard = shard
        var locator = Locator(settings: settings)
        var out: [OutboundMessage] = []
        var next = 0
        for now in stride(from: 0.5, through: 300, by: 0.5) {
            while next < input.count, input[next].at <= now {
                let read = locator.handle(topic: input[next].topic, payload: input[next].payload)
                #expect(read)
                next += 1
            }
            locator.advance(to: Fixtures.at(now), into: &out)
        }
        return (locator, out)
    }

    /// Each topic's messages in the order they were published.
    static func byTopic(_ messages: [OutboundMessage]) -> [String: [OutboundMessage]] {
        Dictionary(grouping: messages, by: \.topic)
    }

    @Test(arguments: LocatorSettings.Engine.allCases)
    func threeShardsTogetherPublishWhatOneLocatorDoesEachBeaconOnce(engine: LocatorSettings.Engine) {
        let input = Self.messages()
        let (whole, all) = Self.run(nil, input, engine: engine)
        #expect(whole.counts.changes > 100, "\(whole.counts.changes)")
        var union: [String: [OutboundMessage]] = [:]
        var tracked = 0
        for k in 1...3 {
            let (part, out) = Self.run(LocatorShard(index: k, count: 3), input, engine: engine)
            // A share of the site, not all of it or none.
            #expect(part.trackedCount > 5 && part.trackedCount < 30, "shard \(k): \(part.trackedCount)")
            #expect(part.counts.otherShard > 0)
            tracked += part.trackedCount
            for (topic, messages) in Self.byTopic(out) {
                #expect(union[topic] == nil, "\(topic) published by two shards")
                union[topic] = messages
            }
        }
        #expect(tracked == whole.trackedCount)
        #expect(union == Self.byTopic(all))
    }
}
