import BeaconCore
import BeaconWire
import Settings
import TestFixtures
import Testing
import Vocabulary

@Suite struct RegionMonitoringTests {
    let a1 = Fixtures.beacon(1)
    let a2 = Fixtures.beacon(2)

    /// What an enter or exit names: the last sighting (address and raw RSSI) and the region's last_seen.
    func by(_ id: BeaconIdentity, rssi: Int8 = -60, lastSeen: Double) -> TransitionBeacon {
        TransitionBeacon(
            identity: id, name: nil, address: Fixtures.address, rssi: rssi, lastSeen: Fixtures.at(lastSeen))
    }

    @Test func firstSightingEntersWithOneEventAndRetainedState() {
        var h = EventHarness(Fixtures.regionConfig())
        let o = h.see(Fixtures.sighting(a1, at: 1))
        #expect(
            o == [
                .didEnterRegion("office", by: by(a1, lastSeen: 1), at: Fixtures.at(1)),
                .didDetermineState(
                    "office", RegionStatus(state: .inside, since: Fixtures.at(1), lastSeen: Fixtures.at(1)),
                    beaconsInRange: 1),
            ])
        #expect(h.monitor.counters.enterEvents == 1)
    }

    @Test func exitFiresAtExactlyTheTimeoutStampedWithTheDeadline() {
        var h = EventHarness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        // One microsecond before lastSeen + 10 s: still inside.
        let early = h.advance(to: Fixtures.at(11) - TimeSpan(microseconds: 1))
        #expect(early.transitions.isEmpty)
        let due = h.advance(to: Fixtures.at(11))
        #expect(
            due == [
                .didExitRegion("office", by: by(a1, lastSeen: 1), at: Fixtures.at(11)),
                .didDetermineState(
                    "office", RegionStatus(state: .outside, since: Fixtures.at(11), lastSeen: Fixtures.at(1)),
                    beaconsInRange: 0),
            ])
    }

    @Test func exitIsStampedWithTheDeadlineEvenWhenAdvanceComesLate() {
        var h = EventHarness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        let o = h.advance(100)
        #expect(o.transitions == [.didExitRegion("office", by: by(a1, lastSeen: 1), at: Fixtures.at(11))])
    }

    @Test func sightingJustBeforeTheDeadlineKeepsTheRegionInside() {
        var h = EventHarness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        h.see(Fixtures.sighting(a1, at: 10.999))
        h.see(Fixtures.sighting(a1, at: 20.998))
        #expect(h.advance(30.997).transitions.isEmpty)
        let o = h.advance(30.998)
        #expect(o.transitions == [.didExitRegion("office", by: by(a1, lastSeen: 20.998), at: Fixtures.at(30.998))])
        #expect(h.out.transitions.count == 2)  // one enter, one exit
    }

    @Test func sightingAtTheDeadlineExitsFirstThenEntersAgain() {
        var h = EventHarness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        let o = h.see(Fixtures.sighting(a1, at: 11))
        #expect(
            o.transitions == [
                .didExitRegion("office", by: by(a1, lastSeen: 1), at: Fixtures.at(11)),
                .didEnterRegion("office", by: by(a1, lastSeen: 11), at: Fixtures.at(11)),
            ])
    }

    @Test func overlappingBeaconsGiveOneEnterAndExitOnlyAfterTheLastLeaves() {
        var h = EventHarness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        h.see(Fixtures.sighting(a2, at: 2))
        h.see(Fixtures.sighting(a1, at: 5))
        h.see(Fixtures.sighting(a2, at: 8))
        #expect(h.out.transitions.count == 1)
        #expect(h.advance(17.999).transitions.isEmpty)  // a1 silent for 13 s, but a2 was seen at 8
        let o = h.advance(18)
        // The last beacon seen is the one the exit names.
        #expect(o.transitions == [.didExitRegion("office", by: by(a2, lastSeen: 8), at: Fixtures.at(18))])
        #expect(h.monitor.counters.exitEvents == 1)
    }

    @Test func unseenRegionIsDeterminedOutsideWithoutAnEvent() {
        var h = EventHarness(Fixtures.regionConfig())
        #expect(h.advance(9.999).isEmpty)
        let o = h.advance(10)
        #expect(
            o == [
                .didDetermineState(
                    "office", RegionStatus(state: .outside, since: Fixtures.at(10), lastSeen: nil), beaconsInRange: 0)
            ])
        // Later sighting: outside → inside with an enter.
        #expect(h.see(Fixtures.sighting(a1, at: 20)).transitions.count == 1)
    }

    @Test func notifyFlagsGateEventsButNotState() {
        var c = Fixtures.regionConfig()
        c.regions[0].notifyEntry = false
        c.regions[0].notifyExit = false
        var h = EventHarness(c)
        let enter = h.see(Fixtures.sighting(a1, at: 1))
        #expect(enter.transitions.isEmpty)
        #expect(enter.states(of: "office") == [.inside])
        let exit = h.advance(11)
        #expect(exit.transitions.isEmpty)
        #expect(exit.states(of: "office") == [.outside])
        #expect(h.monitor.counters.enterEvents == 0)
    }

    @Test func beaconsOutsideEveryRegionAreIgnoredAndCounted() {
        var c = Fixtures.regionConfig()
        c.regions[0].major = 1
        var h = EventHarness(c)
        h.see(Fixtures.sighting(Fixtures.beacon(1, major: 2), at: 1))
        h.see(Fixtures.sighting(Fixtures.beacon(1, uuid: Fixtures.uuidB), at: 1))
        #expect(h.out.isEmpty)
        #expect(h.monitor.counters.ignored == 2)
        #expect(h.monitor.counters.tracked == 0)
        h.see(Fixtures.sighting(a1, at: 2))
        #expect(h.monitor.counters.tracked == 1)
    }

    @Test func perRegionExitTimeoutOverridesTheDefault() {
        var c = Fixtures.regionConfig()
        c.regions[0].exitTimeout = .seconds(30)
        var h = EventHarness(c)
        h.see(Fixtures.sighting(a1, at: 0))
        #expect(h.advance(29.9).transitions.isEmpty)
        #expect(h.advance(30).transitions == [.didExitRegion("office", by: by(a1, lastSeen: 0), at: Fixtures.at(30))])
    }

    @Test func eddystoneRegionMatchesOnNamespaceAndOptionalInstance() {
        // namespace 00112233445566778899, instance aabbccddeeff.
        let id = BeaconIdentity.eddystone(BeaconID128(high: 0x0011_2233_4455_6677, low: 0x8899_AABB_CCDD_EEFF))
        var c = Fixtures.regionConfig()
        c.regions = [
            BeaconRegion(
                name: "ns", scheme: .eddystone, uuid: BeaconID128(high: 0x0011_2233_4455_6677, low: 0x8899 << 48)),
            BeaconRegion(
                name: "other-instance", scheme: .eddystone,
                uuid: BeaconID128(high: 0x0011_2233_4455_6677, low: 0x8899 << 48), instance: 0x1234),
        ]
        var h = EventHarness(c)
        let o = h.see(Fixtures.sighting(id, at: 1))
        #expect(o.transitions == [.didEnterRegion("ns", by: by(id, lastSeen: 1), at: Fixtures.at(1))])
    }
}
