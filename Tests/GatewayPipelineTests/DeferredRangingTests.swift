import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import TestFixtures
import Testing
import Vocabulary

/// A ranging tick composed in slices (`Pipeline.defersRanging`, what the agent turns on) prints
/// what composing it at once prints: the same messages, in the same order per topic; only ranging
/// output waits, every other message comes out of the call that made it.
@Suite struct DeferredRangingTests {
    /// 120 beacons heard at random over 30 s, some leaving, on a pipeline that composes everything
    /// and on one that defers, sliced at random (0–12 results after each call, sometimes none for
    /// several ticks), then finished. `roomFeed` adds a second message to a beacon's result.
    @Test(arguments: [(1 as UInt64, false), (2, false), (3, true), (4, true)])
    func slicesPrintWhatOneTurnPrints(seed: UInt64, roomFeed: Bool) {
        var c = Fixtures.regionConfig(exitTimeout: 3)
        c.monitoring.perBeacon = true
        c.ranging.publish.rangingList = true
        c.ranging.publish.heartbeat = .seconds(2)
        c.regions.append(BeaconRegion(name: "lab", uuid: Fixtures.uuidA, major: 2))
        if roomFeed {
            c.homeAssistant.roomTopic = "espresense/rooms"
            c.gateway.room = "office"
        }
        var once = Pipeline(configuration: c, start: Fixtures.t0)
        var sliced = Pipeline(configuration: c, start: Fixtures.t0)
        sliced.defersRanging = true
        var random = SeededRandom(state: seed)
        var a: [OutboundMessage] = []
        var b: [OutboundMessage] = []
        var most = 0
        var t = 0.0
        while t < 30 {
            t += Double.random(in: 0.005...0.05, using: &random)
            let minor = UInt16.random(in: 1...120, using: &random)
            // Beacons 91–120 go quiet after 12 s: their exits come from the clock.
            if minor <= 90 || t < 12 {
                let s = Fixtures.sighting(
                    Fixtures.beacon(minor, major: minor.isMultiple(of: 3) ? 2 : 1), at: t,
                    rssi: Int8.random(in: -90 ... -50, using: &random),
                    address: BluetoothAddress(rawValue: 0xC0FFEE00_0000 + UInt64(minor)))
                var o1: [OutboundMessage] = []
                var o2: [OutboundMessage] = []
                once.observe(s, into: &o1)
                sliced.observe(s, into: &o2)
                let ranging = o1.filter(Self.isRanging)
                // Nothing but ranging output waits.
                #expect(o2.filter { !Self.isRanging($0) } == o1.filter { !Self.isRanging($0) })
                if !ranging.isEmpty, !roomFeed {
                    // A new tick pushed out what the last one left: only its own results wait.
                    #expect(sliced.deferredOutput + o2.filter(Self.isRanging).count >= ranging.count)
                    #expect(sliced.deferredOutput <= ranging.count)
                }
                a += o1
                b += o2
            }
            most = max(most, sliced.deferredOutput)
            if Int.random(in: 0..<4, using: &random) > 0 {
                sliced.composeDeferred(upTo: Int.random(in: 0...12, using: &random), into: &b)
            }
        }
        once.finish(into: &a)
        sliced.finish(into: &b)
        #expect(sliced.deferredOutput == 0)
        #expect(most > 60, "the run never deferred much: it tests nothing")
        #expect(a.count == b.count)
        #expect(Self.byTopic(a) == Self.byTopic(b))
        #expect(a.contains { $0.kind == .ranging } && a.contains { $0.kind == .proximity })
        if roomFeed { #expect(a.contains { $0.topic.hasPrefix("espresense/rooms/") }) }
    }

    /// A reload composes what was deferred before it with the configuration it was ranged under:
    /// a region renamed by the reload gets its last list on the old name's topic.
    @Test func aReloadComposesWhatWasDeferredUnderTheOldNames() {
        var c = Fixtures.regionConfig()
        c.ranging.publish.rangingList = true
        var p = Pipeline(configuration: c, start: Fixtures.t0)
        p.defersRanging = true
        var out: [OutboundMessage] = []
        p.observe(Fixtures.sighting(Fixtures.beacon(1), at: 0.5), into: &out)
        p.advance(to: Fixtures.at(1), into: &out)
        #expect(out.filter(Self.isRanging).isEmpty)
        #expect(p.deferredOutput > 0)
        c.regions = [BeaconRegion(name: "hall", uuid: Fixtures.uuidA)]
        p.reconfigure(c, at: Fixtures.at(1.01), into: &out)
        #expect(p.deferredOutput == 0)
        #expect(out.filter(Self.isRanging).map(\.topic).contains { $0.contains("/office/") })
    }

    /// What a ranging result composes: proximity, lists, and the `mqtt_room` feed's distances.
    static func isRanging(_ m: OutboundMessage) -> Bool {
        m.kind == .proximity || m.kind == .ranging || m.topic.hasPrefix("espresense/rooms/")
    }

    /// Payloads per topic, in order.
    static func byTopic(_ messages: [OutboundMessage]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for m in messages { out[m.topic, default: []].append(m.payload.text) }
        return out
    }
}
