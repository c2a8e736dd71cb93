import AgentCore
import BeaconCore
import BeaconWire
import MessageContract
import MetricsContract
import Settings
import Testing
import Vocabulary

/// Foreign receivers (`locator.foreign_sources`) through `locate`'s core: their readings count as
/// their mapped gateways', stamped by the locator's clock; their availability marks them offline;
/// bad input is a debug line and changes nothing.
@Suite struct LocatorCoreForeignTests {
    static let beacon = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1"
    static let identity = BeaconIdentity.uuid(
        BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!, major: 1, minor: 1)
    static let espTopic = "espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1/kitchen"

    var core: LocatorCore
    var broker = FakeBroker()
    var now = MonotonicInstant(nanoseconds: 0)
    let wall = Timestamp(microseconds: 0)

    init() {
        var settings = LocatorSettings()
        // The nearest engine: its owner is a gateway id, so the hand-over names the node's.
        settings.engine = .nearest
        settings.foreignSources = [
            ForeignSource(
                format: .espresense, nodes: ["kitchen": .init(gateway: "esp-kitchen", floor: "1", room: "kitchen")])
        ]
        core = LocatorCore(
            locator: Locator(settings: settings), clock: .messages, tick: .milliseconds(200), outboxLimit: 100,
            now: now, wall: wall)
    }

    mutating func handle(_ topic: String, _ payload: String) {
        core.handle(
            .mqtt(.message(topic: topic, payload: Array(payload.utf8), retained: false)), at: now, wall: wall, &broker)
    }

    /// Gateway A (the hall) at `metres`, and the kitchen's ESPresense node at `kitchen` metres, each second.
    mutating func feed(seconds: ClosedRange<Int>, hall metres: Double, kitchen: Double) {
        for s in seconds {
            let stamp = "2024-05-01T12:00:\(s < 10 ? "0" : "")\(s).000Z"
            handle(
                "\(Self.beacon)/A/proximity",
                #"{"accuracy":\#(metres),"floor":"1","room":"hall","timestamp":"\#(stamp)"}"#)
            handle(
                Self.espTopic,
                #"{"mac":"c0ffee000001","id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1","rssi@1m":-59,"rssi":-62.5,"rxAdj":0,"distance":\#(kitchen),"var":0.2,"int":1000}"#
            )
        }
    }

    @Test mutating func aForeignNodeCountsAsItsGatewayAndItsWillTakesItsReadingsOut() {
        core.handle(.mqtt(.connected(generation: 1)), at: now, wall: wall, &broker)
        #expect(Array(broker.subscribed.suffix(2)) == ["espresense/devices/+/+", "espresense/rooms/+/status"])
        feed(seconds: 0...12, hall: 4, kitchen: 0.8)
        #expect(core.locator.location(of: Self.identity)?.gateway == "esp-kitchen")
        #expect(core.locator.location(of: Self.identity)?.room == "kitchen")
        #expect(core.foreignCounters.readings == 13)
        // The node's will: offline. From the next tick its readings do not count, and the hall owns the beacon.
        handle("espresense/rooms/kitchen/status", "offline")
        feed(seconds: 13...16, hall: 4, kitchen: 0.8)
        #expect(core.locator.location(of: Self.identity)?.gateway == "A")
        #expect(core.foreignCounters.statuses == 1)
    }

    @Test mutating func badForeignInputIsADebugLineAndChangesNoDecision() {
        core.handle(.mqtt(.connected(generation: 1)), at: now, wall: wall, &broker)
        _ = core.takeActions()
        feed(seconds: 0...3, hall: 1, kitchen: 9)
        let before = core.locator.location(of: Self.identity)
        let published = broker.published.count
        handle(Self.espTopic, #"{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1","distance":"near"}"#)
        handle("espresense/devices/x/garage", #"{"id":"c10203040506","distance":0.1}"#)
        #expect(
            core.takeActions() == [
                .log(
                    LogRecord(
                        .debug, "foreign message ignored",
                        [
                            "topic": Self.espTopic,
                            "reason": "espresense message from node kitchen: distance is not a number in 0.0…1000.0",
                        ])),
                .log(
                    LogRecord(
                        .debug, "foreign message ignored",
                        [
                            "topic": "espresense/devices/x/garage", "reason": "node garage is not mapped",
                        ])),
            ])
        #expect(core.locator.location(of: Self.identity) == before)
        #expect(broker.published.count == published)
        #expect(core.foreignCounters.malformed == 1 && core.foreignCounters.unmappedNode == 1)
        #expect(
            core.metrics.foreignMessages.map { "\($0.outcome)=\($0.count)" } == [
                "reading=4", "status=0", "malformed=1", "unknown_identity=0", "unmapped_node=1",
            ])
    }

    /// A reload reads the new sources and keeps counting: `/metrics` counters never go back.
    @Test mutating func aReloadKeepsTheForeignCounts() {
        core.handle(.mqtt(.connected(generation: 1)), at: now, wall: wall, &broker)
        feed(seconds: 0...1, hall: 1, kitchen: 9)
        handle("espresense/devices/x/garage", #"{"id":"c10203040506","distance":0.1}"#)
        var c = Configuration()
        c.locator.engine = .nearest
        c.locator.foreignSources = [
            ForeignSource(format: .espresense, nodes: ["garage": .init(gateway: "esp-garage", room: "garage")])
        ]
        core.handle(.configuration(c), at: now, wall: wall, &broker)
        handle(Self.espTopic, #"{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1","distance":0.5}"#)
        handle("espresense/devices/x/garage", #"{"id":"c10203040506","distance":0.1}"#)
        #expect(core.foreignCounters.readings == 2)
        #expect(core.foreignCounters.unmappedNode == 2, "kitchen is no longer mapped")
        #expect(core.foreignCounters.unknownIdentity == 1, "garage is, and its advertiser is nobody")
    }
}
