import BeaconCore
import BeaconWire
import MessageContract
import Testing

@Suite struct RegionMonitoringTests {
    let a1 = Fixtures.beacon(1)
    let a2 = Fixtures.beacon(2)

    @Test func firstSightingEntersWithOneEventAndRetainedState() {
        var h = Harness(Fixtures.regionConfig())
        let o = h.see(Fixtures.sighting(a1, at: 1))
        #expect(o.eventPayloads.count == 1)
        #expect(o.eventPayloads.first?.hasPrefix(#"{"event":"enter","region":"office""#) == true)
        let state = o.topic(endingWith: "beacons/regions/office/gw1/state")
        #expect(state.map(\.payload) == [.text("inside")])
        #expect(state.first?.retain == true && state.first?.qos == 1)
        #expect(h.monitor.counters.enterEvents == 1)
    }

    @Test func exitFiresAtExactlyTheTimeoutStampedWithTheDeadline() {
        var h = Harness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        // One microsecond before lastSeen + 10 s: still inside.
        let early = h.advance(to: Fixtures.at(11) - TimeSpan(microseconds: 1))
        #expect(early.of(.event).isEmpty)
        let due = h.advance(to: Fixtures.at(11))
        #expect(due.eventPayloads.count == 1)
        let exit = due.eventPayloads.first ?? ""
        #expect(exit.hasPrefix(#"{"event":"exit""#))
        #expect(exit.contains(#""timestamp":"2024-05-01T12:00:11.000Z""#))
        #expect(exit.contains(#""last_seen":"2024-05-01T12:00:01.000Z""#))
        #expect(due.topic(endingWith: "/regions/office/gw1/state").map(\.payload) == [.text("outside")])
    }

    @Test func exitIsStampedWithTheDeadlineEvenWhenAdvanceComesLate() {
        var h = Harness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        let o = h.advance(100)
        #expect(o.eventPayloads.count == 1)
        #expect(o.eventPayloads.first?.contains(#""timestamp":"2024-05-01T12:00:11.000Z""#) == true)
    }

    @Test func sightingJustBeforeTheDeadlineKeepsTheRegionInside() {
        var h = Harness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        h.see(Fixtures.sighting(a1, at: 10.999))
        h.see(Fixtures.sighting(a1, at: 20.998))
        #expect(h.advance(30.997).of(.event).isEmpty)
        let o = h.advance(30.998)
        #expect(o.eventPayloads.count == 1)
        #expect(o.eventPayloads.first?.contains(#""timestamp":"2024-05-01T12:00:30.998Z""#) == true)
        #expect(h.out.eventPayloads.count == 2)  // one enter, one exit
    }

    @Test func sightingAtTheDeadlineExitsFirstThenEntersAgain() {
        var h = Harness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        let o = h.see(Fixtures.sighting(a1, at: 11))
        #expect(o.eventPayloads.map { $0.prefix(16) } == [#"{"event":"exit","#, #"{"event":"enter""#])
    }

    @Test func overlappingBeaconsGiveOneEnterAndExitOnlyAfterTheLastLeaves() {
        var h = Harness(Fixtures.regionConfig())
        h.see(Fixtures.sighting(a1, at: 1))
        h.see(Fixtures.sighting(a2, at: 2))
        h.see(Fixtures.sighting(a1, at: 5))
        h.see(Fixtures.sighting(a2, at: 8))
        #expect(h.out.eventPayloads.count == 1)
        #expect(h.advance(17.999).of(.event).isEmpty)  // a1 silent for 13 s, but a2 was seen at 8
        let o = h.advance(18)
        #expect(o.eventPayloads.count == 1)
        #expect(o.eventPayloads.first?.contains(#""minor":2"#) == true)  // the last beacon seen
        #expect(h.monitor.counters.exitEvents == 1)
    }

    @Test func unseenRegionIsDeterminedOutsideWithoutAnEvent() {
        var h = Harness(Fixtures.regionConfig())
        #expect(h.advance(9.999).isEmpty)
        let o = h.advance(10)
        #expect(o.of(.event).isEmpty)
        #expect(o.topic(endingWith: "/regions/office/gw1/state").map(\.payload) == [.text("outside")])
        #expect(
            o.topic(endingWith: "/regions/office/gw1/attributes").map(\.payload.text) == [
                #"{"state":"outside","since":"2024-05-01T12:00:10.000Z","last_seen":null,"beacons_in_range":0}"#
            ])
        // Later sighting: outside → inside with an enter.
        #expect(h.see(Fixtures.sighting(a1, at: 20)).eventPayloads.count == 1)
    }

    @Test func notifyFlagsGateEventsButNotState() {
        var c = Fixtures.regionConfig()
        c.regions[0].notifyEntry = false
        c.regions[0].notifyExit = false
        var h = Harness(c)
        let enter = h.see(Fixtures.sighting(a1, at: 1))
        #expect(enter.of(.event).isEmpty)
        #expect(enter.topic(endingWith: "/state").map(\.payload) == [.text("inside")])
        let exit = h.advance(11)
        #expect(exit.of(.event).isEmpty)
        #expect(exit.topic(endingWith: "/state").map(\.payload) == [.text("outside")])
        #expect(h.monitor.counters.enterEvents == 0)
    }

    @Test func beaconsOutsideEveryRegionAreIgnoredAndCounted() {
        var c = Fixtures.regionConfig()
        c.regions[0].major = 1
        var h = Harness(c)
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
        var h = Harness(c)
        h.see(Fixtures.sighting(a1, at: 0))
        #expect(h.advance(29.9).of(.event).isEmpty)
        #expect(h.advance(30).of(.event).count == 1)
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
        var h = Harness(c)
        let o = h.see(Fixtures.sighting(id, at: 1))
        #expect(o.of(.event).map(\.topic) == ["beacons/regions/ns/gw1/event"])
        #expect(
            o.eventPayloads.first?.contains(#""namespace":"00112233445566778899","instance":"aabbccddeeff""#) == true)
    }
}
