import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import TestFixtures
import Testing
import Vocabulary

@Suite struct RestoreAndReloadTests {
    let a1 = Fixtures.beacon(1)

    @Test func restoredInsideRegionSuppressesTheEnter() {
        var h = MessageHarness(Fixtures.regionConfig())
        h.pipeline.restore([
            RestoredState(
                subject: .region("office"), state: .inside, since: Fixtures.at(-3600), lastSeen: Fixtures.at(-60))
        ])
        let o = h.see(Fixtures.sighting(a1, at: 1))
        #expect(o.of(.event).isEmpty)
        #expect(o.of(.state).isEmpty)
        // Exits normally after the beacon goes silent.
        #expect(h.advance(11).eventPayloads.count == 1)
    }

    @Test func restoredInsideRegionExitsAtStartPlusTimeoutWhenNeverSeen() {
        var h = MessageHarness(Fixtures.regionConfig())
        h.pipeline.restore([
            RestoredState(
                subject: .region("office"), state: .inside, since: Fixtures.at(-3600), lastSeen: Fixtures.at(-60))
        ])
        #expect(h.advance(9.999).of(.event).isEmpty)
        let o = h.advance(10)
        #expect(o.eventPayloads.count == 1)
        let exit = o.eventPayloads.first ?? ""
        #expect(exit.hasPrefix(#"{"event":"exit","region":"office","name":null"#))
        #expect(exit.contains(#""last_seen":"2024-05-01T12:00:00.000Z""#))  // max(last_seen, start)
        #expect(o.topic(endingWith: "/state").map(\.payload) == [.text("outside")])
    }

    @Test func staleRestoredStateIsIgnored() {
        var h = MessageHarness(Fixtures.regionConfig())
        h.pipeline.restore([
            RestoredState(
                subject: .region("office"), state: .inside, since: Fixtures.at(-7200), lastSeen: Fixtures.at(-901))
        ])
        #expect(h.see(Fixtures.sighting(a1, at: 1)).eventPayloads.count == 1)
    }

    @Test func restoredOutsideRegionEntersOnSightingAndSkipsDetermination() {
        var h = MessageHarness(Fixtures.regionConfig())
        h.pipeline.restore([
            RestoredState(
                subject: .region("office"), state: .outside, since: Fixtures.at(-100), lastSeen: Fixtures.at(-200))
        ])
        #expect(h.advance(15).isEmpty)
        #expect(h.see(Fixtures.sighting(a1, at: 20)).eventPayloads.count == 1)
    }

    @Test func restoredInsideBeaconSuppressesItsEnter() {
        var c = Configuration()
        c.gateway.id = "gw1"
        var h = MessageHarness(c)
        h.pipeline.restore([
            RestoredState(subject: .beacon(a1), state: .inside, since: Fixtures.at(-50), lastSeen: Fixtures.at(-5))
        ])
        #expect(h.see(Fixtures.sighting(a1, at: 1)).of(.event).isEmpty)
        #expect(h.see(Fixtures.sighting(Fixtures.beacon(2), at: 1)).of(.event).count == 1)
    }

    @Test func restoredInsideBeaconNeverSeenExitsWithoutAddress() {
        var c = Configuration()
        c.gateway.id = "gw1"
        var h = MessageHarness(c)
        h.pipeline.restore([
            RestoredState(subject: .beacon(a1), state: .inside, since: Fixtures.at(-50), lastSeen: Fixtures.at(-5))
        ])
        #expect(h.advance(9.999).of(.event).isEmpty)
        let exit = h.advance(10).eventPayloads
        #expect(exit.count == 1)
        #expect(
            exit.first?.contains(
                #""address":null,"rssi":null,"timestamp":"2024-05-01T12:00:10.000Z","last_seen":"2024-05-01T12:00:00.000Z"}"#
            ) == true)
    }

    @Test func reconfigureKeepsUnchangedRegionsAndDeterminesNewOnes() {
        var h = MessageHarness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        var c = Fixtures.regionConfig()
        c.regions.append(BeaconRegion(name: "lab", uuid: Fixtures.uuidB))
        var o: [OutboundMessage] = []
        h.pipeline.reconfigure(c, at: Fixtures.at(5), into: &o)
        #expect(o.filter { $0.kind != .proximity }.isEmpty)
        // "office" stays inside (no second enter) and exits on its original schedule.
        #expect(h.see(Fixtures.sighting(Fixtures.beacon(2), at: 6)).of(.event).isEmpty)
        let later = h.advance(15)
        #expect(later.topic(endingWith: "regions/lab/gw1/state").map(\.payload) == [.text("outside")])
        #expect(later.of(.event).isEmpty)
        #expect(h.advance(16).of(.event).map(\.topic) == ["beacons/regions/office/gw1/event"])
    }

    @Test func reconfigureClearsRetainedTopicsOfRemovedRegions() {
        var h = MessageHarness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        var c = Fixtures.regionConfig()
        c.regions = [BeaconRegion(name: "lab", uuid: Fixtures.uuidB)]
        var o: [OutboundMessage] = []
        h.pipeline.reconfigure(c, at: Fixtures.at(2), into: &o)
        let cleared = o.of(.state)
        #expect(cleared.map(\.topic) == ["beacons/regions/office/gw1/state", "beacons/regions/office/gw1/attributes"])
        #expect(cleared.allSatisfy { $0.retain && $0.payload == .text("") })
        #expect(h.monitor.counters.tracked == 0)  // a1 matches no region any more
        #expect(h.advance(30).of(.event).isEmpty)
    }

    @Test func republishRetainedReturnsCurrentStates() {
        var h = MessageHarness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        var o: [OutboundMessage] = []
        h.pipeline.republishRetained(into: &o)
        #expect(o.map(\.topic) == ["beacons/regions/office/gw1/state", "beacons/regions/office/gw1/attributes"])
        #expect(o.first?.payload == .text("inside"))
    }

    @Test func attributesAreRefreshedWhileInside() {
        var c = Fixtures.regionConfig()
        c.monitoring.attributesRefresh = .seconds(60)
        c.monitoring.exitTimeout = .seconds(100)
        var h = MessageHarness(c)
        h.see(Fixtures.sighting(a1, at: 0.5))
        #expect(h.advance(60).topic(endingWith: "/attributes").isEmpty)
        h.see(Fixtures.sighting(a1, at: 60.2))
        let o = h.advance(61).topic(endingWith: "/attributes")
        #expect(
            o.map(\.payload.text) == [
                #"{"state":"inside","since":"2024-05-01T12:00:00.500Z","last_seen":"2024-05-01T12:01:00.200Z","beacons_in_range":1}"#
            ])
    }

    @Test func reconfigureRestartsARegionWhoseIdentifiersChanged() {
        var h = MessageHarness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        var c = Fixtures.regionConfig()
        c.regions[0].major = 1
        var o: [OutboundMessage] = []
        h.pipeline.reconfigure(c, at: Fixtures.at(2), into: &o)
        #expect(h.monitor.regionStates.map(\.state) == [.unknown])
        // Seen again: a fresh enter, as for a new region.
        #expect(h.see(Fixtures.sighting(a1, at: 3)).eventPayloads.count == 1)
    }
}

/// Retained topics of this gateway read back at start whose region or beacon is no longer configured.
@Suite struct WithdrawUnmonitoredTests {
    @Test func clearsTheTopicsOfARemovedRegionAndOfBeaconsMatchingNoRegion() {
        var c = Fixtures.regionConfig()
        c.monitoring.perBeacon = true
        let a = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2"
        let b = "beacons/f7826da6-4fa2-4e98-8024-bc5b71e0893e/1/2"
        let topics = [
            "beacons/regions/office/gw1/state", "beacons/regions/office/gw1/attributes",
            "beacons/regions/zone/gw1/state", "beacons/regions/zone/gw1/attributes",
            "\(a)/gw1/state", "\(a)/gw1/attributes", "\(b)/gw1/state", "\(b)/gw1/attributes",
            // Another gateway's, another base topic's, and a leaf that is not retained state: never ours to clear.
            "beacons/regions/zone/gw2/state", "other/regions/zone/gw1/state", "beacons/regions/zone/gw1/event",
        ]
        var out: [OutboundMessage] = []
        Pipeline(configuration: c).withdrawUnmonitored(topics, into: &out)
        #expect(
            out.map(\.topic) == [
                "beacons/regions/zone/gw1/state", "beacons/regions/zone/gw1/attributes", "\(b)/gw1/state",
                "\(b)/gw1/attributes",
            ])
        #expect(out.allSatisfy { $0.payload == .text("") && $0.retain })
    }

    @Test func withPerBeaconOffEveryBeaconTopicIsCleared() {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.monitoring.perBeacon = false
        var out: [OutboundMessage] = []
        Pipeline(configuration: c).withdrawUnmonitored(
            ["beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/state"], into: &out)
        #expect(out.map(\.topic) == ["beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/state"])
        c.monitoring.perBeacon = true
        out = []
        Pipeline(configuration: c).withdrawUnmonitored(
            ["beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/state"], into: &out)
        #expect(out.isEmpty)
    }
}
