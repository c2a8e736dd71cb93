import BeaconCore
import BeaconWire
import MessageContract
import Testing

@Suite struct PerBeaconMonitoringTests {
    let a1 = Fixtures.beacon(1)
    let a2 = Fixtures.beacon(2)

    static func perBeaconConfig() -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.monitoring.perBeacon = true
        return c
    }

    @Test func withoutRegionsEveryBeaconEntersAndExitsOnItsOwnTopics() {
        var h = Harness(Self.perBeaconConfig())
        let enter = h.see(Fixtures.sighting(a1, at: 1))
        let base = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/"
        #expect(enter.map(\.topic) == [base + "event", base + "state", base + "attributes"])
        h.see(Fixtures.sighting(a2, at: 3))
        let exits = h.advance(13)
        #expect(
            exits.of(.event).map(\.topic) == [
                base + "event", "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/event",
            ])
        #expect(exits.eventPayloads.first?.contains(#""timestamp":"2024-05-01T12:00:11.000Z""#) == true)
        #expect(!h.out.contains { $0.topic.contains("/regions/") })
    }

    @Test func withRegionsBothRegionAndBeaconTopicsArePublished() {
        var c = Self.perBeaconConfig()
        c.regions = [BeaconRegion(name: "office", uuid: Fixtures.uuidA)]
        var h = Harness(c)
        let o = h.see(Fixtures.sighting(a1, at: 1))
        #expect(
            o.of(.event).map(\.topic) == [
                "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/event", "beacons/regions/office/gw1/event",
            ])
        // A second beacon enters on its own topic, but not the region again.
        let o2 = h.see(Fixtures.sighting(a2, at: 2))
        #expect(o2.of(.event).map(\.topic) == ["beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/event"])
    }

    @Test func beaconExitTimeoutPrefersOverrideThenLongestRegion() {
        var c = Self.perBeaconConfig()
        c.regions = [
            BeaconRegion(name: "short", uuid: Fixtures.uuidA, exitTimeout: .seconds(5)),
            BeaconRegion(name: "long", uuid: Fixtures.uuidA, major: 1, exitTimeout: .seconds(20)),
        ]
        c.beacons = [BeaconOverride(identity: a2, exitTimeout: .seconds(3))]
        var h = Harness(c)
        h.see(Fixtures.sighting(a1, at: 0))
        h.see(Fixtures.sighting(a2, at: 0))
        let beaconEvents = { (o: [OutboundMessage]) in o.of(.event).filter { !$0.topic.contains("/regions/") } }
        #expect(
            beaconEvents(h.advance(3)).map(\.topic) == ["beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/event"])
        #expect(beaconEvents(h.advance(19.9)).isEmpty)
        #expect(
            beaconEvents(h.advance(20)).map(\.topic) == ["beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/event"])
    }

    @Test func evictingAnInsideBeaconPublishesItsExitWithReason() {
        var c = Self.perBeaconConfig()
        c.monitoring.maxTracked = 2
        var h = Harness(c)
        h.see(Fixtures.sighting(a1, at: 1))
        h.see(Fixtures.sighting(a2, at: 2))
        let o = h.see(Fixtures.sighting(Fixtures.beacon(3), at: 3))
        let exit = o.of(.event).first { $0.payload.text.hasPrefix(#"{"event":"exit""#) }
        #expect(exit?.topic == "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/event")
        #expect(
            exit?.payload.text.hasSuffix(
                #""timestamp":"2024-05-01T12:00:03.000Z","last_seen":"2024-05-01T12:00:01.000Z","reason":"evicted"}"#)
                == true)
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
        var h = Harness(c)
        let enter = h.see(Fixtures.sighting(a1, at: 0))
        #expect(enter.of(.event).isEmpty)
        #expect(enter.of(.state).count == 4)  // beacon and region: state + attributes each
        #expect(h.advance(10).of(.event).count == 2)  // beacon exit and region exit
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
