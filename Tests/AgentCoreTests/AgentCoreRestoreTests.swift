import AgentCore
import BeaconCore
import BeaconWire
import Settings
import Testing
import Vocabulary

@Suite struct AgentCoreRestoreTests {
    let subscriptions = [
        "b/+/+/+/gw/attributes", "b/regions/+/gw/attributes", "b/+/+/+/gw/state", "b/regions/+/gw/state",
        "b/devices/+/gw/attributes", "b/devices/+/gw/state",
    ]

    @Test func noPacketIsTakenUntilTheRetainedStatesAreRead() {
        var h = CoreHarness()
        #expect(h.core.phase == .restoring)
        #expect(!h.core.takesSourceEvents)
        h.connectAndRestore()
        #expect(h.core.phase == .running)
        #expect(h.core.takesSourceEvents)
    }

    @Test func theReadBackEndsAQuietPeriodAfterTheLastRetainedMessage() {
        var h = CoreHarness()
        h.handle(.mqtt(.connected(generation: 1)))
        #expect(h.broker.subscribed == subscriptions)
        for mid in h.broker.subscriptionMids { h.handle(.mqtt(.subscribed(generation: 1, mid: mid))) }
        h.pass(0.2)
        let topic = "b/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw/attributes"
        h.handle(.mqtt(.message(topic: topic, payload: Array("{}".utf8), retained: true)))
        // Not retained, or empty: not a saved state.
        h.handle(.mqtt(.message(topic: "b/x/1/2/gw/attributes", payload: Array("{}".utf8), retained: false)))
        h.handle(.mqtt(.message(topic: "b/y/1/2/gw/attributes", payload: [], retained: true)))
        h.pass(0.29)
        h.tick()
        #expect(h.core.phase == .restoring)  // the quiet period restarted at the message
        h.pass(0.01)
        h.tick()
        #expect(h.core.phase == .running)
        #expect(h.broker.unsubscribed == subscriptions)
        #expect(h.core.counters.pipeline.reports == 0)
        #expect(h.logs == ["info: restored retained states read=1"])
    }

    /// Still restoring 1 ms before the 3 s deadline (`start` is now), running at it.
    static func expectEndAtTheDeadline(_ h: inout CoreHarness, start: MonotonicInstant) {
        h.pass(2.999)
        h.tick()
        #expect(h.core.phase == .restoring)
        #expect(h.core.nextWake == start + .seconds(3))
        h.pass(0.001)
        h.tick()
        #expect(h.core.phase == .running)
    }

    @Test func withoutABrokerTheRestoreEndsAtItsDeadlineAndStartsFresh() {
        var h = CoreHarness()
        let start = h.now
        Self.expectEndAtTheDeadline(&h, start: start)
        #expect(h.broker.unsubscribed.isEmpty)
        #expect(h.logs == ["warning: broker not reachable at start: states not restored, starting fresh"])
    }

    @Test func subscriptionAcknowledgementsOfAnOlderConnectionDoNotCount() {
        var h = CoreHarness()
        h.handle(.mqtt(.connected(generation: 1)))
        h.handle(.mqtt(.disconnected(generation: 1)))
        h.handle(.mqtt(.connected(generation: 2)))
        let mids = h.broker.subscriptionMids
        #expect(mids.count == 12)
        for mid in mids.prefix(6) { h.handle(.mqtt(.subscribed(generation: 1, mid: mid))) }
        h.pass(1)
        h.tick()
        #expect(h.core.phase == .restoring)
        for mid in mids.suffix(6) { h.handle(.mqtt(.subscribed(generation: 2, mid: mid))) }
        h.pass(0.3)
        h.tick()
        #expect(h.core.phase == .running)
    }

    static let uuid = BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!
    static let office = "b/regions/office/gw/attributes"
    static let desk = "b/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw/attributes"

    /// Regions, a beacon override, a device and a region that names one beacon.
    static func configuredSubjects(_ c: inout Configuration) {
        c.regions = [
            BeaconRegion(name: "office", uuid: uuid),
            BeaconRegion(name: "door", uuid: uuid, major: 7, minor: 9),
        ]
        c.beacons = [BeaconOverride(identity: .uuid(uuid, major: 1, minor: 2), name: "desk")]
        c.devices = [
            DeviceSettings(name: "alice-phone", identification: .address(BluetoothAddress("c0:ff:ee:00:00:01")!))
        ]
    }

    /// RabbitMQ sends retained messages only to filters without wildcards: the read-back also subscribes
    /// to each configured subject's exact attributes topic, after the wildcards.
    @Test func theReadBackAlsoSubscribesToEachConfiguredSubjectsExactTopic() {
        var h = CoreHarness(configure: Self.configuredSubjects)
        h.handle(.mqtt(.connected(generation: 1)))
        #expect(
            h.broker.subscribed == subscriptions + [
                Self.office, "b/regions/door/gw/attributes", Self.desk, "b/devices/alice-phone/gw/attributes",
                "b/e2c56db5-dffb-48d2-b060-d0f5a71096e0/7/9/gw/attributes",
            ])
        // Without per-beacon monitoring only the regions and the device are monitored one by one.
        var perRegion = CoreHarness {
            Self.configuredSubjects(&$0)
            $0.monitoring.perBeacon = false
        }
        perRegion.handle(.mqtt(.connected(generation: 1)))
        #expect(
            perRegion.broker.subscribed
                == subscriptions + [Self.office, "b/regions/door/gw/attributes", "b/devices/alice-phone/gw/attributes"])
    }

    /// mosquitto sends a retained message once per matching filter (wildcard and exact): it is read
    /// once; RabbitMQ sends it only for the exact one: it is read all the same. Both end a quiet period
    /// after the last SUBACK and message, and every filter is unsubscribed.
    @Test(arguments: [2, 1])
    func aStateReadThroughBothFiltersIsRestoredOnce(deliveries: Int) {
        var h = CoreHarness(configure: Self.configuredSubjects)
        h.handle(.mqtt(.connected(generation: 1)))
        let all = h.broker.subscribed
        for mid in h.broker.subscriptionMids { h.handle(.mqtt(.subscribed(generation: 1, mid: mid))) }
        let payload = Array(#"{"state":"inside","since":"2023-11-14T22:00:00Z"}"#.utf8)
        for delivery in 0..<deliveries {
            if delivery > 0 {
                h.pass(0.1)
                h.tick()
            }
            h.handle(.mqtt(.message(topic: Self.office, payload: payload, retained: true)))
        }
        h.pass(0.29)
        h.tick()
        #expect(h.core.phase == .restoring)
        h.pass(0.01)
        h.tick()
        #expect(h.core.phase == .running)
        #expect(h.core.pipeline.restored?.map(\.topic) == [Self.office])
        #expect(h.broker.unsubscribed == all)
        #expect(h.logs == ["info: restored retained states read=1"])
    }

    /// A broker that never acknowledges the exact subscriptions does not hold the start: the read-back
    /// ends at its deadline with what arrived.
    @Test func unacknowledgedExactSubscriptionsEndAtTheDeadline() {
        var h = CoreHarness(configure: Self.configuredSubjects)
        let start = h.now
        h.handle(.mqtt(.connected(generation: 1)))
        for mid in h.broker.subscriptionMids.prefix(subscriptions.count) {
            h.handle(.mqtt(.subscribed(generation: 1, mid: mid)))
        }
        h.handle(.mqtt(.message(topic: Self.desk, payload: Array(#"{"state":"inside"}"#.utf8), retained: true)))
        Self.expectEndAtTheDeadline(&h, start: start)
        #expect(h.core.pipeline.restored?.map(\.topic) == [Self.desk])
    }

    @Test func aReplaySkipsTheReadBackAndWaitsForTheFirstConnectionAttempt() {
        var h = CoreHarness(timing: .capture(speed: nil))
        #expect(h.core.phase == .running)
        #expect(!h.core.takesSourceEvents)
        h.handle(.mqtt(.connectFailed(reason: "refused")))
        #expect(h.core.takesSourceEvents)
        #expect(h.broker.subscribed.isEmpty)
    }
}
