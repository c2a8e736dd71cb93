import BeaconCore
import BeaconWire
import Settings
import TestFixtures
import Testing
import Vocabulary

@Suite struct PerBeaconMonitoringTests {
    let a1 = Fixtures.beacon(1)
    let a2 = Fixtures.beacon(2)

    static func perBeaconConfig() -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.monitoring.perBeacon = true
        return c
    }

    /// What a per-beacon enter or exit names: the beacon's last sighting.
    func by(_ id: BeaconIdentity, lastSeen: Double) -> TransitionBeacon {
        TransitionBeacon(identity: id, name: nil, address: Fixtures.address, rssi: -60, lastSeen: Fixtures.at(lastSeen))
    }

    @Test func withoutRegionsEveryBeaconEntersAndExitsOnItsOwn() {
        var h = EventHarness(Self.perBeaconConfig())
        let enter = h.see(Fixtures.sighting(a1, at: 1))
        #expect(
            enter == [
                .beaconDidEnter(by(a1, lastSeen: 1), at: Fixtures.at(1)),
                .beaconDidDetermineState(
                    a1, name: nil, RegionStatus(state: .inside, since: Fixtures.at(1), lastSeen: Fixtures.at(1))),
            ])
        h.see(Fixtures.sighting(a2, at: 3))
        let exits = h.advance(13)
        #expect(
            exits.transitions == [
                .beaconDidExit(by(a1, lastSeen: 1), at: Fixtures.at(11), reason: nil),
                .beaconDidExit(by(a2, lastSeen: 3), at: Fixtures.at(13), reason: nil),
            ])
        #expect(
            !h.out.contains {
                switch $0 {
                case .didEnterRegion, .didExitRegion, .didDetermineState, .didRange: return true
                default: return false
                }
            })
    }

    @Test func withRegionsBothRegionAndBeaconEventsAreEmitted() {
        var c = Self.perBeaconConfig()
        c.regions = [BeaconRegion(name: "office", uuid: Fixtures.uuidA)]
        var h = EventHarness(c)
        let o = h.see(Fixtures.sighting(a1, at: 1))
        #expect(
            o.transitions == [
                .beaconDidEnter(by(a1, lastSeen: 1), at: Fixtures.at(1)),
                .didEnterRegion("office", by: by(a1, lastSeen: 1), at: Fixtures.at(1)),
            ])
        // A second beacon enters on its own, but the region does not enter again.
        let o2 = h.see(Fixtures.sighting(a2, at: 2))
        #expect(o2.transitions == [.beaconDidEnter(by(a2, lastSeen: 2), at: Fixtures.at(2))])
    }

    @Test func beaconExitTimeoutPrefersOverrideThenLongestRegion() {
        var c = Self.perBeaconConfig()
        c.regions = [
            BeaconRegion(name: "short", uuid: Fixtures.uuidA, exitTimeout: .seconds(5)),
            BeaconRegion(name: "long", uuid: Fixtures.uuidA, major: 1, exitTimeout: .seconds(20)),
        ]
        c.beacons = [BeaconOverride(identity: a2, exitTimeout: .seconds(3))]
        var h = EventHarness(c)
        h.see(Fixtures.sighting(a1, at: 0))
        h.see(Fixtures.sighting(a2, at: 0))
        let beaconExits = { (o: [MonitoringEvent]) in
            o.filter {
                if case .beaconDidExit = $0 { return true }
                return false
            }
        }
        #expect(beaconExits(h.advance(3)) == [.beaconDidExit(by(a2, lastSeen: 0), at: Fixtures.at(3), reason: nil)])
        #expect(beaconExits(h.advance(19.9)).isEmpty)
        #expect(beaconExits(h.advance(20)) == [.beaconDidExit(by(a1, lastSeen: 0), at: Fixtures.at(20), reason: nil)])
    }

    @Test func evictingAnInsideBeaconExitsItWithReason() {
        var c = Self.perBeaconConfig()
        c.monitoring.maxTracked = 2
        var h = EventHarness(c)
        h.see(Fixtures.sighting(a1, at: 1))
        h.see(Fixtures.sighting(a2, at: 2))
        let o = h.see(Fixtures.sighting(Fixtures.beacon(3), at: 3))
        #expect(
            o.transitions == [
                .beaconDidExit(by(a1, lastSeen: 1), at: Fixtures.at(3), reason: .evicted),
                .beaconDidEnter(by(Fixtures.beacon(3), lastSeen: 3), at: Fixtures.at(3)),
            ])
        #expect(h.monitor.counters.evicted == 1)
        #expect(h.monitor.counters.tracked == 2)
    }

    @Test func floodOfRandomIdentitiesStaysWithinTheCap() {
        var c = Configuration()
        c.monitoring.perBeacon = false
        c.monitoring.maxTracked = 1000
        var m = BeaconMonitor(settings: MonitorSettings(c), start: Fixtures.t0)
        var out: [MonitoringEvent] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var maxTracked = 0
        for n in 0..<100_000 {
            // SplitMix64: 100 000 distinct pseudo-random UUIDs.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let id = BeaconIdentity.uuid(BeaconID128(high: z, low: UInt64(n)), major: 1, minor: 1)
            m.observe(
                BeaconSighting(
                    identity: id, kind: .iBeacon, address: Fixtures.address, rssi: -70, measuredPower: -59,
                    timestamp: Fixtures.t0 + TimeSpan(microseconds: Int64(n))),
                into: &out)
            maxTracked = max(maxTracked, m.counters.tracked)
        }
        #expect(maxTracked == 1000)
        #expect(m.counters.evicted == 99_000)
        #expect(m.counters.sightings == 100_000)
        #expect(m.trackedBeacons.count == 1000)
    }

    @Test func perBeaconEventsFollowTheFlagsOfMatchingRegions() {
        var c = Self.perBeaconConfig()
        c.regions = [BeaconRegion(name: "quiet", uuid: Fixtures.uuidA, notifyEntry: false, notifyExit: true)]
        var h = EventHarness(c)
        let enter = h.see(Fixtures.sighting(a1, at: 0))
        #expect(enter.transitions.isEmpty)
        #expect(enter.states(of: "quiet") == [.inside])
        #expect(
            enter.contains(
                .beaconDidDetermineState(
                    a1, name: nil, RegionStatus(state: .inside, since: Fixtures.at(0), lastSeen: Fixtures.at(0)))))
        #expect(enter.determinations.count == 2)  // beacon and region, once each
        #expect(
            h.advance(10).transitions == [
                .didExitRegion("quiet", by: by(a1, lastSeen: 0), at: Fixtures.at(10)),
                .beaconDidExit(by(a1, lastSeen: 0), at: Fixtures.at(10), reason: nil),
            ])
    }

    @Test func sightingFromADecodedFrameCarriesKindAndMeasuredPower() {
        let ibeacon = BeaconSighting(
            beacon: .iBeacon(IBeacon(uuid: Fixtures.uuidA, major: 7, minor: 9, measuredPower: -58)),
            address: Fixtures.address, rssi: -70, timestamp: Fixtures.t0)
        #expect(ibeacon?.identity == Fixtures.beacon(9, major: 7))
        #expect(ibeacon?.kind == .iBeacon && ibeacon?.measuredPower == -58)
        let uid = BeaconSighting(
            beacon: .eddystone(.uid(EddystoneUID(txPowerAt0m: -20, id: Fixtures.uuidB))), address: Fixtures.address,
            rssi: -70, timestamp: Fixtures.t0)
        #expect(uid?.kind == .eddystoneUID && uid?.measuredPower == -61)  // 0 m → 1 m: −41 dB
        let url = BeaconSighting(
            beacon: .eddystone(.url(EddystoneURL(txPowerAt0m: -20, url: "https://x"))), address: Fixtures.address,
            rssi: -70, timestamp: Fixtures.t0)
        #expect(url == nil)
    }
}
