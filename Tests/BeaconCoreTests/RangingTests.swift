import BeaconCore
import BeaconWire
import Settings
import TestFixtures
import Testing
import Vocabulary

@Suite struct RangingTests {
    let a1 = Fixtures.beacon(1)
    let a2 = Fixtures.beacon(2)
    let a3 = Fixtures.beacon(3)

    static func rangingConfig(filter: FilterSettings.Kind = .none) -> Configuration {
        var c = Fixtures.regionConfig()
        c.ranging.publish.rangingList = true
        c.ranging.filter.kind = filter
        return c
    }

    /// Each region's ranged beacons at a tick, as (region, minors in order).
    static func lists(_ events: [MonitoringEvent]) -> [(String, [UInt16])] {
        events.compactMap {
            if case .didRange(let region, let beacons) = $0 { return (region, beacons.map(\.identity.minor)) }
            return nil
        }
    }

    /// The beacons reported for publication (`didRangeBeacon`), in order.
    static func reported(_ events: [MonitoringEvent]) -> [(RangedBeacon, Timestamp)] {
        events.compactMap {
            if case .didRangeBeacon(let b, let t) = $0 { return (b, t) }
            return nil
        }
    }

    @Test func rangingListIsNearestFirstWithUnknownAccuracyLast() {
        var h = EventHarness(Self.rangingConfig())
        h.see(Fixtures.sighting(a3, at: 0.1, rssi: 127))  // no RSSI → accuracy −1
        h.see(Fixtures.sighting(a2, at: 0.2, rssi: -80))  // 9.52 m
        h.see(Fixtures.sighting(a1, at: 0.3, rssi: -50))  // 0.19 m
        let tick = Self.lists(h.advance(1))
        #expect(tick.map(\.0) == ["office"])
        #expect(tick.first?.1 == [1, 2, 3])
    }

    /// Many beacons at few distinct RSSI values (ties in accuracy, broken by identity) and some
    /// without RSSI (unknown accuracy, last): every list is the order of sorting its own entries
    /// by (accuracy, unknown = ∞; identity), the order the tick's compact keys must give.
    @Test func rangingListBreaksTiesByIdentity() {
        var h = EventHarness(Self.rangingConfig())
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        var listed = 0
        var ties = 0
        for tick in 1...5 {
            for n in 0..<150 {
                x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let id = BeaconIdentity.uuid(Fixtures.uuidA, major: UInt16(x >> 60), minor: UInt16(n * 7 % 150))
                let rssi: Int8 = x >> 20 % 9 == 0 ? 127 : -50 - Int8(x >> 40 % 4) * 5
                h.see(Fixtures.sighting(id, at: Double(tick) - 0.5 + Double(n) / 1_000, rssi: rssi))
            }
            for case .didRange(_, let beacons) in h.advance(Double(tick)) {
                let key = { (b: RangedBeacon) in b.accuracy < 0 ? Double.infinity : b.accuracy }
                let reference = beacons.sorted { key($0) != key($1) ? key($0) < key($1) : $0.identity < $1.identity }
                #expect(beacons.map(\.identity) == reference.map(\.identity))
                listed += beacons.count
                ties += zip(beacons, beacons.dropFirst()).filter { key($0) == key($1) }.count
            }
        }
        #expect(listed > 500)
        #expect(ties > 100)
    }

    @Test func ticksAreAlignedToTheInterval() {
        var h = EventHarness(Self.rangingConfig(), start: Fixtures.at(0.25))
        h.see(Fixtures.sighting(a1, at: 0.3))
        #expect(Self.lists(h.advance(0.999)).isEmpty)
        #expect(Self.lists(h.advance(1)).count == 1)
        #expect(Self.lists(h.advance(1.999)).isEmpty)
        #expect(Self.lists(h.advance(3)).count == 2)
    }

    @Test func staleBeaconsDropOutAndOneEmptyListFollows() {
        var h = EventHarness(Self.rangingConfig())
        h.see(Fixtures.sighting(a1, at: 0.5))
        var lists: [Int: [(String, [UInt16])]] = [:]
        for tick in 1...30 {
            if tick <= 9 { h.see(Fixtures.sighting(a2, at: Double(tick) - 0.5)) }  // a2 last seen at 8.5
            lists[tick] = Self.lists(h.advance(Double(tick)))
        }
        #expect(lists[5]?.map(\.1) == [[1, 2]])  // a1 is 4.5 s old: still listed
        #expect(lists[6]?.map(\.1) == [[2]])  // 5.5 s old: dropped
        #expect(lists[13]?.map(\.1) == [[2]])
        #expect(lists[14]?.map(\.1) == [[]])  // one empty list when it empties
        #expect((15...30).allSatisfy { lists[$0]?.isEmpty == true })
    }

    @Test func proximityIsPublishedOnFirstRangeDeadbandAndHeartbeat() {
        var c = Self.rangingConfig()
        c.ranging.publish.rangingList = false
        var h = EventHarness(c)
        h.see(Fixtures.sighting(a1, at: 0.5, rssi: -59))  // 1.01 m, near
        #expect(Self.reported(h.advance(1)).count == 1)
        h.see(Fixtures.sighting(a1, at: 1.5, rssi: -60))  // ≈1.13 m: within the 0.5 m deadband
        #expect(Self.reported(h.advance(2)).isEmpty)
        h.see(Fixtures.sighting(a1, at: 2.5, rssi: -65))  // 2.01 m: moved 1 m
        let moved = Self.reported(h.advance(3))
        #expect(moved.count == 1)
        #expect(moved.map { ($0.0.accuracy * 100).rounded() } == [201])  // prints as 2.01
        var quiet: [(RangedBeacon, Timestamp)] = []
        for s in 3..<33 {
            h.see(Fixtures.sighting(a1, at: Double(s) + 0.5, rssi: -65))
            quiet += Self.reported(h.advance(Double(s) + 1))
        }
        // Heartbeat 30 s after the publication at 3 s: exactly one, at 33 s.
        #expect(quiet.map(\.1) == [Fixtures.at(33)])
    }

    @Test func proximityChangeAloneTriggersPublication() {
        var c = Self.rangingConfig()
        c.ranging.publish.accuracyDeadband = 0
        c.ranging.publish.rssiDeadband = 0
        c.ranging.publish.heartbeat = .zero
        var h = EventHarness(c)
        h.see(Fixtures.sighting(a1, at: 0.5, rssi: -59))
        #expect(Self.reported(h.advance(1)).count == 1)
        h.see(Fixtures.sighting(a1, at: 1.5, rssi: -80))  // 9.5 m: far
        let far = Self.reported(h.advance(2))
        #expect(far.map(\.0.proximity) == [.far])
        h.see(Fixtures.sighting(a1, at: 2.5, rssi: -85))  // still far, no deadband → nothing
        #expect(Self.reported(h.advance(3)).isEmpty)
    }

    @Test func rssiDeadbandAloneTriggersPublication() {
        var c = Self.rangingConfig()
        c.ranging.publish.onProximityChange = false
        c.ranging.publish.accuracyDeadband = 0
        c.ranging.publish.heartbeat = .zero
        c.gateway.rssiOffset = 2  // the deadband reads the signal as published, offset applied
        var h = EventHarness(c)
        var published: [Double?] = []
        for (s, rssi) in [-80, -82, -83, -84, -86, -86, -83].enumerated() {
            h.see(Fixtures.sighting(a1, at: Double(s) + 0.5, rssi: Int8(rssi)))
            published += Self.reported(h.advance(Double(s) + 1)).map(\.0.filteredRSSI)
        }
        // The first range, then each signal at least 3 dB from the last one published.
        #expect(published == [-78, -81, -84, -81])
    }

    @Test func medianFilterIsAppliedOverTheWindowAtTicks() {
        var c = Self.rangingConfig(filter: .median)
        c.ranging.filter.window = .seconds(2)
        var h = EventHarness(c)
        h.see(Fixtures.sighting(a1, at: 0.1, rssi: -90))  // falls out of the 2 s window by tick 3
        h.see(Fixtures.sighting(a1, at: 1.2, rssi: -60))
        h.see(Fixtures.sighting(a1, at: 1.4, rssi: -70))
        h.see(Fixtures.sighting(a1, at: 2.6, rssi: -62))
        h.advance(3)
        // Window (1, 3]: −60, −70, −62 → median −62.
        #expect(h.monitor.trackedBeacons.first?.filteredRSSI == -62)
    }

    @Test func rssiOffsetIsAddedToRawAndFilteredValues() {
        var c = Self.rangingConfig()
        c.gateway.rssiOffset = 3
        var h = EventHarness(c)
        h.see(Fixtures.sighting(a1, at: 0.5, rssi: -62))
        h.advance(1)
        let b = h.monitor.trackedBeacons.first
        #expect(b?.rssi == -59)
        #expect(b?.filteredRSSI == -59)
        #expect(abs((b?.accuracy ?? 0) - 1.01076) < 1e-9)  // −59 at −59 measured power
    }

    @Test func measuredPowerPrefersOverrideThenFrameThenDefault() {
        var c = Self.rangingConfig()
        c.beacons = [BeaconOverride(identity: a1, measuredPower: -70)]
        c.ranging.distance.defaultMeasuredPower = -65
        var h = EventHarness(c)
        h.see(Fixtures.sighting(a1, at: 0.5, rssi: -70, power: -59))
        h.see(Fixtures.sighting(a2, at: 0.5, rssi: -70, power: -59))
        h.see(Fixtures.sighting(a3, at: 0.5, rssi: -70, power: nil))
        h.advance(1)
        let powers = Dictionary(
            uniqueKeysWithValues: h.monitor.trackedBeacons.map { ($0.identity.minor, $0.measuredPower) })
        #expect(powers == [1: -70, 2: -59, 3: -65])
    }

    @Test func kalmanAndTrimmedMeanFiltersAreAppliedByTheMonitor() {
        var h = EventHarness(Self.rangingConfig(filter: .kalman))
        h.see(Fixtures.sighting(a1, at: 0.2, rssi: -60))
        h.see(Fixtures.sighting(a1, at: 0.4, rssi: -70))
        h.advance(1)
        // −60 initialises (covariance 4); then gain 4.008/8.008 towards −70.
        let kalman = -60 + 4.008 / 8.008 * -10
        #expect(abs((h.monitor.trackedBeacons.first?.filteredRSSI ?? 0) - kalman) < 1e-12)

        var c = Self.rangingConfig(filter: .trimmedMean)
        c.ranging.filter.trim = 0.2
        var t = EventHarness(c)
        for (k, rssi) in [-60, -99, -62, -64, -40].enumerated() {
            t.see(Fixtures.sighting(a1, at: 0.1 * Double(k + 1), rssi: Int8(rssi)))
        }
        t.advance(1)
        // 5 samples, trim 0.2 → drop one each end (−99, −40): mean of −64, −62, −60 = −62.
        #expect(t.monitor.trackedBeacons.first?.filteredRSSI == -62)
    }

    @Test func samplesWithoutRSSIAreIgnored() {
        var h = EventHarness(Self.rangingConfig(filter: .median))
        h.see(Fixtures.sighting(a1, at: 0.2, rssi: -60))
        h.see(Fixtures.sighting(a1, at: 0.4, rssi: -64))
        h.see(Fixtures.sighting(a1, at: 0.6, rssi: 127))
        h.advance(1)
        #expect(h.monitor.trackedBeacons.first?.filteredRSSI == -62)  // median of −60, −64 only
        #expect(h.monitor.trackedBeacons.first?.rssi == nil)  // the last report had none
    }
}
