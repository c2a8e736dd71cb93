import AgentCore
import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Testing
import Vocabulary

/// `locate` on the agent's shape: its output goes through the acknowledged, bounded outbox.
@Suite struct LocatorCoreTests {
    static let beacon = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1"
    var core = LocatorCore(
        locator: Locator(), clock: .messages, tick: .milliseconds(200), outboxLimit: 100,
        now: MonotonicInstant(nanoseconds: 0), wall: Timestamp(microseconds: 0))
    var broker = FakeBroker()
    var now = MonotonicInstant(nanoseconds: 0)
    let wall = Timestamp(microseconds: 0)

    mutating func handle(_ input: AgentInput) { core.handle(input, at: now, wall: wall, &broker) }

    mutating func tick(after seconds: Double) {
        now = now + TimeSpan(microseconds: Int64((seconds * 1e6).rounded()))
        core.tick(at: now, wall: wall, &broker)
    }

    /// Gateway A's readings of the beacon, one a second from 12:00:00, 1.5 m away.
    mutating func feed(seconds: ClosedRange<Int>) {
        for s in seconds {
            let payload =
                #"{"accuracy":1.5,"floor":"1","room":"hall","timestamp":"2024-05-01T12:00:\#(s < 10 ? "0" : "")\#(s).000Z"}"#
            handle(.mqtt(.message(topic: "\(Self.beacon)/A/proximity", payload: Array(payload.utf8), retained: false)))
        }
    }

    @Test mutating func connectingSubscribesToEveryGatewayAndTheRetainedLocations() {
        handle(.mqtt(.connected(generation: 1)))
        #expect(
            broker.subscribed == [
                "beacons/+/+/+/+/proximity", "beacons/+/+/+/+/event", "beacons/gateways/+/status",
                "beacons/gateways/+/advertising", "beacons/+/+/+/location", "beacons/devices/+/+/proximity",
                "beacons/devices/+/+/event",
                "beacons/devices/+/location",
            ])
        #expect(core.takeActions() == [.log(LogRecord(.info, "locator subscribed", ["base_topic": "beacons"]))])
        #expect(broker.subscribedQoS == [Int](repeating: 1, count: 8))
    }

    /// A clean session subscribes at QoS 0: it keeps nothing across a reconnect, and a RabbitMQ cluster
    /// refuses a QoS 1 subscription on another node while the node that made its queue is down.
    @Test mutating func aCleanSessionSubscribesAtQoS0() {
        core = LocatorCore(
            locator: Locator(), clock: .messages, tick: .milliseconds(200), outboxLimit: 100, now: now, wall: wall,
            cleanSession: true)
        handle(.mqtt(.connected(generation: 1)))
        #expect(broker.subscribed.count == 8)
        #expect(broker.subscribedQoS == [Int](repeating: 0, count: 8))
    }

    /// The configured beacons' retained locations are also read through their exact topics (RabbitMQ sends
    /// retained messages only to filters without wildcards): one read there is restored, so the owner's
    /// next readings send no new event.
    @Test mutating func configuredBeaconsAreReadBackThroughTheirExactTopics() {
        var locator = Locator()
        locator.readBackTopics = ["\(Self.beacon)/location"]
        core = LocatorCore(
            locator: locator, clock: .messages, tick: .milliseconds(200), outboxLimit: 100, now: now, wall: wall)
        handle(.mqtt(.connected(generation: 1)))
        #expect(broker.subscribed.last == "\(Self.beacon)/location")
        #expect(broker.subscribed.count == 9)
        let retained =
            #"{"gateway":"A","floor":"1","room":"hall","accuracy":1.5,"since":"2024-05-01T11:00:00.000Z","confidence":1,"state":"home","last_seen":"2024-05-01T11:59:59.000Z"}"#
        handle(.mqtt(.message(topic: "\(Self.beacon)/location", payload: Array(retained.utf8), retained: true)))
        feed(seconds: 0...5)
        tick(after: 0.2)
        #expect(broker.published.isEmpty, "\(broker.published.map(\.payload))")
        #expect(
            core.locator.location(
                of: .uuid(BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!, major: 1, minor: 1))?.room
                == "hall")
    }

    @Test mutating func aLocationIsHeldUntilAcknowledgedAndResentAfterALostConnection() {
        handle(.mqtt(.connected(generation: 1)))
        feed(seconds: 0...5)
        tick(after: 0.2)
        let sent = broker.published.map(\.topic)
        #expect(sent == ["\(Self.beacon)/location", "\(Self.beacon)/event"])
        #expect(core.published == 0)
        handle(.mqtt(.published(generation: 1, mid: broker.published[1].mid)))
        #expect(core.published == 1)
        handle(.mqtt(.disconnected(generation: 1)))
        #expect(core.counters.requeued == 1)
        broker.published = []
        handle(.mqtt(.connected(generation: 2)))
        // The unacknowledged location again, then every current location (retained: the repeat is harmless).
        #expect(broker.published.map(\.topic) == ["\(Self.beacon)/location", "\(Self.beacon)/location"])
        #expect(broker.published.allSatisfy { $0.generation == 2 })
    }

    /// A broker that lost its retained messages (amqtt restarted, RabbitMQ crashed before saving them)
    /// gets every current location again at the reconnect, though all were acknowledged.
    @Test mutating func aReconnectPublishesTheRetainedLocationsAgain() {
        handle(.mqtt(.connected(generation: 1)))
        feed(seconds: 0...5)
        tick(after: 0.2)
        for p in broker.published { handle(.mqtt(.published(generation: 1, mid: p.mid))) }
        let first = broker.published.first { $0.topic == "\(Self.beacon)/location" }
        handle(.mqtt(.disconnected(generation: 1)))
        #expect(core.counters.requeued == 0)
        broker.published = []
        handle(.mqtt(.connected(generation: 2)))
        #expect(broker.published.map(\.topic) == ["\(Self.beacon)/location"])
        #expect(broker.published.first?.payload == first?.payload)
    }

    /// 100 s of readings read before any turn's tick (a replay at speed, a bridge draining a backlog):
    /// on the messages' clock each tick is decided as the readings pass it, so the beacon is placed
    /// as in real time (the belief engine names it at the third tick of evidence, counted from the
    /// tick of its first reading), and no reading waits undecided past `aheadCapacity`.
    @Test mutating func aBacklogOnTheMessagesClockIsDecidedTickByTickAsItArrives() {
        handle(.mqtt(.connected(generation: 1)))
        for s in 0..<100 {
            let at = Timestamp(microseconds: 1_714_564_800_000_000 + Int64(s) * 1_000_000).rfc3339
            let payload = #"{"accuracy":1.5,"floor":"1","room":"hall","timestamp":"\#(at)"}"#
            handle(.mqtt(.message(topic: "\(Self.beacon)/A/proximity", payload: Array(payload.utf8), retained: false)))
        }
        let location = broker.published.first { $0.topic == "\(Self.beacon)/location" }
        // The first reading is stamped on a whole second: it counts at that very tick, the first of three.
        #expect(
            location?.payload.contains(#""since":"2024-05-01T12:00:02.000Z""#) == true,
            "\(String(describing: location?.payload))")
    }

    /// A fresh site's first tick places every beacon at once: `inFlightWindow` of its messages go out
    /// before the first acknowledgement (64 did, one broker round trip per 64), the rest as they come.
    @Test mutating func aStartUpBurstGoesOutThroughTheLocatorsWindow() {
        core = LocatorCore(
            locator: Locator(), clock: .messages, tick: .milliseconds(200), outboxLimit: 10_000, now: now, wall: wall)
        handle(.mqtt(.connected(generation: 1)))
        // Four seconds of readings decide the ticks up to the third, where the belief engine names a room.
        for s in 0...3 {
            for minor in 1...600 {
                let payload = #"{"accuracy":1.5,"floor":"1","room":"hall","timestamp":"2024-05-01T12:00:0\#(s).000Z"}"#
                let topic = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/\(minor)/A/proximity"
                handle(.mqtt(.message(topic: topic, payload: Array(payload.utf8), retained: false)))
            }
        }
        #expect(core.queuedCount == 1_200)  // a location and an event each
        #expect(broker.published.count == LocatorCore.inFlightWindow)
        #expect(LocatorCore.inFlightWindow == 1_024)
        guard let first = broker.published.first else { return }
        handle(.mqtt(.published(generation: 1, mid: first.mid)))
        #expect(broker.published.count == LocatorCore.inFlightWindow + 1)
    }

    @Test mutating func withoutABrokerTheOutputStaysWithinTheLimit() {
        core = LocatorCore(
            locator: Locator(), clock: .messages, tick: .milliseconds(200), outboxLimit: 4, now: now, wall: wall)
        // Twelve beacons, each located once: twelve locations and twelve events for an outbox of 4.
        for s in 0...5 {
            for minor in 1...12 {
                let payload = #"{"accuracy":1.5,"floor":"1","room":"hall","timestamp":"2024-05-01T12:00:0\#(s).000Z"}"#
                let topic = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/\(minor)/A/proximity"
                handle(.mqtt(.message(topic: topic, payload: Array(payload.utf8), retained: false)))
            }
        }
        tick(after: 0.2)
        #expect(core.counters.enqueued == 24)
        // Locations and events are must-deliver: their lane is the limit less a quarter, 3.
        #expect(core.queuedCount == 3)
        #expect(core.counters.dropped + core.counters.coalesced == 21)
        #expect(broker.published.isEmpty)
    }

    @Test mutating func aStopDecidesOnceMoreAndEndsWhenTheOutboxIsAcknowledged() {
        handle(.mqtt(.connected(generation: 1)))
        feed(seconds: 0...5)
        handle(.signal(.stop(name: "stop")))
        #expect(broker.published.count == 2)  // decided as the readings came, on their clock: none at a tick
        tick(after: 0.01)
        #expect(core.termination == nil)
        for p in broker.published { handle(.mqtt(.published(generation: 1, mid: p.mid))) }
        tick(after: 0.01)
        guard case .clean? = core.termination else { return #expect(Bool(false), "no clean end") }
    }

    @Test mutating func anUnacknowledgedStopEndsAtTheFlushDeadline() {
        handle(.mqtt(.connected(generation: 1)))
        feed(seconds: 0...5)
        handle(.signal(.stop(name: "stop")))
        tick(after: 1.99)
        #expect(core.termination == nil)
        tick(after: 0.01)
        #expect(core.termination != nil)
    }
    /// `run`'s embedded locator follows the configuration: new settings apply from the next tick,
    /// the tracks and locations stay, and Home Assistant discovery follows the configured beacons.
    @Test mutating func aNewConfigurationKeepsTheTracksAndDiscoveryFollowsIt() {
        var c = Configuration()
        c.gateway.id = "gw1"
        core = LocatorCore(
            locator: Locator(), clock: .messages, tick: .milliseconds(200), outboxLimit: 100, now: now, wall: wall,
            discovery: HomeAssistantLocatorDiscovery(configuration: c, softwareVersion: "1.0"))
        handle(.mqtt(.connected(generation: 1)))
        feed(seconds: 0...5)
        tick(after: 0.2)
        #expect(broker.published.map(\.topic) == ["\(Self.beacon)/location", "\(Self.beacon)/event"])
        broker.published = []
        // Home Assistant discovery on, a beacon named, and an mqtt_room feed.
        c.homeAssistant.discovery = true
        c.beacons = [
            BeaconOverride(
                identity: .uuid(BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!, major: 1, minor: 1),
                name: "keys")
        ]
        c.locator.mqttRoomTopic = "espresense/rooms"
        handle(.configuration(c))
        let topics = broker.published.map(\.topic)
        // The current location's room at once (the tracker reads it), then discovery, birth subscribed.
        #expect(topics.first == "\(Self.beacon)/room")
        #expect(broker.published.first?.payload == "hall")
        #expect(
            topics.contains(
                "homeassistant/device_tracker/beacon2mqtt_locator/e2c56db5dffb48d2b060d0f5a71096e0_1_1_room_tracker/config"
            ))
        #expect(broker.subscribed.last == "homeassistant/status")
        broker.published = []
        // The track is kept: a further reading is no new location, only the room feed it now has.
        feed(seconds: 6...6)
        tick(after: 0.2)
        #expect(!broker.published.map(\.topic).contains("\(Self.beacon)/location"))
        #expect(broker.published.map(\.topic).contains("espresense/rooms/hall"))
        #expect(core.locator.settings.mqttRoomTopic == "espresense/rooms")
        // The beacon unconfigured, discovery off: its entities go.
        broker.published = []
        c.beacons = []
        c.homeAssistant.discovery = false
        handle(.configuration(c))
        #expect(
            broker.published.contains {
                $0.topic
                    == "homeassistant/device_tracker/beacon2mqtt_locator/e2c56db5dffb48d2b060d0f5a71096e0_1_1_room_tracker/config"
                    && $0.payload.isEmpty
            })
    }
}
