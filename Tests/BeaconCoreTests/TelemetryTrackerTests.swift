import BeaconCore
import BeaconWire
import TestFixtures
import Testing
import Vocabulary

/// `TelemetryTracker` on a manual clock: TLM/URL association by advertiser address, the interval
/// measurement, the rate limit, the battery threshold, and memory under floods.
@Suite struct TelemetryTrackerTests {
    let uid = BeaconIdentity.eddystone(BeaconID128(uuidString: "edd1ebea-c04e-5def-a017-ebb1cb1c7cc1")!)
    let ibeacon = Fixtures.beacon(7)
    let address = BluetoothAddress("eb:b1:cb:1c:7c:c1")!
    let other = BluetoothAddress("eb:b1:cb:1c:7c:c2")!

    static func tlm(_ mv: UInt16, temperature: Double? = 20, count: UInt32 = 1) -> EddystoneFrame {
        .tlm(
            EddystoneTLM(
                batteryMillivolts: mv, temperature: temperature, advertisingCount: count, uptimeDeciseconds: 10))
    }

    /// The tracker beside a real monitor (no regions: every beacon tracked, `capacity` at most),
    /// which gives each identity frame its slot as the pipeline does.
    struct Driver {
        var tracker: TelemetryTracker
        var monitor: BeaconMonitor
        var out: [BeaconTelemetry] = []

        init(interval: Int64 = 60, lowBattery: Int = 2500, capacity: Int = 64, beacons: [BeaconOverride] = []) {
            var s = TelemetrySettings()
            s.interval = .seconds(interval)
            s.lowBatteryMillivolts = lowBattery
            tracker = TelemetryTracker(settings: s, beacons: beacons, capacity: capacity)
            var m = MonitorSettings(beacons: beacons)
            m.monitoring.maxTracked = capacity
            monitor = BeaconMonitor(settings: m, start: Fixtures.t0)
        }

        mutating func collect(_ events: [MonitoringEvent]) -> [BeaconTelemetry] {
            let t: [BeaconTelemetry] = events.compactMap {
                if case .didUpdateTelemetry(let b) = $0 { return b }
                Issue.record("unexpected event \($0)")
                return nil
            }
            out += t
            return t
        }

        @discardableResult
        mutating func identity(
            _ id: BeaconIdentity, at s: Double, from a: BluetoothAddress, power: Int8 = -21
        )
            -> [BeaconTelemetry]
        {
            let sighting = Fixtures.sighting(id, at: s, address: a)
            var monitored: [MonitoringEvent] = []
            let slot = monitor.track(sighting, into: &monitored)!
            var e: [MonitoringEvent] = []
            tracker.observe(sighting, slot: slot, advertised: (power, 0), into: &e)
            return collect(e)
        }

        @discardableResult
        mutating func frame(_ f: EddystoneFrame, at s: Double, from a: BluetoothAddress) -> [BeaconTelemetry] {
            var e: [MonitoringEvent] = []
            tracker.observe(f, from: a, at: Fixtures.at(s), into: &e)
            return collect(e)
        }

        @discardableResult
        mutating func advance(_ s: Double) -> [BeaconTelemetry] {
            var e: [MonitoringEvent] = []
            tracker.advance(to: Fixtures.at(s), into: &e)
            return collect(e)
        }
    }

    @Test func aTLMFromTheIdentityFramesAddressIsAttachedAndPublishedAtOnce() {
        var d = Driver(beacons: [BeaconOverride(identity: uid, name: "desk")])
        #expect(d.identity(uid, at: 0, from: address).isEmpty, "the first identity frame waits for TLM or the window")
        d.identity(uid, at: 0.1, from: address)
        #expect(d.frame(Self.tlm(2999), at: 0.15, from: other).isEmpty, "another address's TLM is not this beacon's")
        let first = d.frame(Self.tlm(2925, temperature: 32.75), at: 0.2, from: address)
        try? #require(first.count == 1)
        #expect(first[0].identity == uid)
        #expect(first[0].name == "desk")
        #expect(first[0].tlm?.batteryMillivolts == 2925)
        #expect(first[0].tlm?.temperature == 32.75)
        #expect(first[0].tlmSeen == Fixtures.at(0.2))
        #expect(first[0].txPower == -21)
        #expect(first[0].txPowerAtMetres == 0)
        #expect(first[0].interval == .milliseconds(100))
        #expect(first[0].lowBattery == false)
        #expect(first[0].timestamp == Fixtures.at(0.2))
    }

    @Test func aTLMHeardBeforeAnyIdentityFrameIsHeldForTheAddress() {
        var d = Driver()
        #expect(d.frame(Self.tlm(3100), at: 0, from: address).isEmpty)
        #expect(
            d.frame(.url(EddystoneURL(txPowerAt0m: -20, url: "https://example.com")), at: 0.05, from: address).isEmpty)
        let out = d.identity(uid, at: 0.3, from: address)
        #expect(out.count == 1)
        #expect(out.first?.tlm?.batteryMillivolts == 3100)
        #expect(out.first?.tlmSeen == Fixtures.at(0))
        #expect(out.first?.url == "https://example.com")
    }

    @Test func aMultiSlotBeaconsTLMBelongsToEveryIdentityFromItsAddress() {
        var d = Driver()
        d.identity(uid, at: 0, from: address)
        d.identity(ibeacon, at: 0.1, from: address)
        let out = d.frame(Self.tlm(3000), at: 0.2, from: address)
        #expect(Set(out.map(\.identity)) == [uid, ibeacon])
    }

    /// The rate limit: at most one message per interval; what is heard inside a window goes at the
    /// window's end; a silent beacon's window closes without a message, and its next frame after that
    /// goes at once.
    @Test func atMostOneMessagePerIntervalWithTheWindowsNewsAtItsEnd() {
        var d = Driver(interval: 60)
        d.identity(uid, at: 0, from: address)
        #expect(d.frame(Self.tlm(3000, count: 1), at: 1, from: address).count == 1)
        for s in stride(from: 2.0, to: 59, by: 1) {
            #expect(d.identity(uid, at: s, from: address).isEmpty)
            #expect(d.frame(Self.tlm(3000, count: UInt32(s)), at: s + 0.5, from: address).isEmpty)
        }
        #expect(d.advance(60.9).isEmpty)
        let end = d.advance(61)
        #expect(end.count == 1)
        #expect(end.first?.timestamp == Fixtures.at(61))
        #expect(end.first?.tlm?.advertisingCount == 58)
        #expect(end.first?.interval == .seconds(1), "the shortest gap of the window")
        // Silent through the next window: nothing at its end, and the next frame goes at once.
        #expect(d.advance(200).isEmpty)
        let back = d.identity(uid, at: 200.5, from: address)
        #expect(back.count == 1)
        #expect(back.first?.interval == .seconds(1), "a gap beyond 10.24 s is no interval: the last one stays")
        #expect(d.identity(uid, at: 201, from: address).isEmpty)
        #expect(d.out.count == 3)
    }

    @Test func aBeaconWithoutTLMPublishesOneIntervalAfterItWasFirstSeen() {
        var d = Driver(interval: 30)
        for i in 0..<300 { #expect(d.identity(ibeacon, at: Double(i) * 0.1, from: address, power: -59).isEmpty) }
        let out = d.advance(30)
        #expect(out.count == 1)
        #expect(out.first?.tlm == nil)
        #expect(out.first?.lowBattery == nil)
        #expect(out.first?.interval == .milliseconds(100))
        #expect(out.first?.txPower == -59)
    }

    /// A timer can run the tracker's clock past a packet that arrives late (a replay on a loaded
    /// machine): the interval is still the gap between the frames' own times.
    @Test func theIntervalIsMeasuredOnTheFramesTimesNotTheClock() {
        var d = Driver(interval: 30)
        for i in 0..<100 {
            if i % 10 == 5 { d.advance(Double(i) * 0.1 + 0.05) }  // a tick half-way to the next frame
            d.identity(ibeacon, at: Double(i) * 0.1, from: address)
        }
        #expect(d.advance(30).first?.interval == .milliseconds(100))
    }

    /// Gaps under 20 ms are the same advertising event heard twice (Core Spec Vol 6, Part B, §4.4.2.2.1).
    @Test func theIntervalIgnoresGapsShorterThanTheSmallestAdvertisingInterval() {
        var d = Driver(interval: 10)
        for i in 0..<39 {
            d.identity(ibeacon, at: Double(i) * 0.25, from: address)
            d.identity(ibeacon, at: Double(i) * 0.25 + 0.005, from: address)
        }
        #expect(d.advance(10).first?.interval == .milliseconds(245))
    }

    /// Below the threshold: at once, whatever the window; back up only past the hysteresis.
    @Test func aBatteryCrossingTheThresholdPublishesAtOnce() {
        var d = Driver(interval: 600, lowBattery: 2500)
        d.identity(uid, at: 0, from: address)
        #expect(d.frame(Self.tlm(2600), at: 1, from: address).first?.lowBattery == false)
        #expect(d.frame(Self.tlm(2510), at: 10, from: address).isEmpty, "still above: rate-limited")
        let low = d.frame(Self.tlm(2499), at: 20, from: address)
        #expect(low.count == 1)
        #expect(low.first?.lowBattery == true)
        #expect(low.first?.timestamp == Fixtures.at(20))
        #expect(d.frame(Self.tlm(2520), at: 30, from: address).isEmpty, "within the hysteresis it stays low")
        #expect(d.frame(Self.tlm(2480), at: 40, from: address).isEmpty)
        let recovered = d.frame(Self.tlm(3000), at: 50, from: address)
        #expect(recovered.first?.lowBattery == false)
        #expect(d.out.count == 3)
        // The crossing started a new window: its end is 600 s after the last crossing.
        #expect(d.identity(uid, at: 100, from: address).isEmpty)
        #expect(d.advance(649).isEmpty)
        #expect(d.advance(650).count == 1)
    }

    @Test func aBatteryThatIsNotReportedIsNeitherLowNorNot() {
        var d = Driver()
        d.identity(uid, at: 0, from: address)
        let out = d.frame(Self.tlm(0, temperature: nil), at: 1, from: address)
        #expect(out.first?.lowBattery == nil)
        #expect(out.first?.tlm?.battery == nil)
        #expect(out.first?.tlm?.temperature == nil)
    }

    /// Where the address rotates, the TLM from the new address waits for an identity frame from it.
    @Test func anAddressRotationReattachesAtTheNextIdentityFrame() {
        var d = Driver()
        d.identity(uid, at: 0, from: address)
        #expect(d.frame(Self.tlm(3000), at: 1, from: address).count == 1)
        let rotated = BluetoothAddress("5a:00:00:00:00:01")!
        #expect(d.frame(Self.tlm(2400), at: 2, from: rotated).isEmpty, "no identity known for the new address yet")
        let out = d.identity(uid, at: 3, from: rotated)
        #expect(out.count == 1, "the held TLM crosses the threshold once attached")
        #expect(out.first?.address == rotated)
        #expect(out.first?.lowBattery == true)
    }

    /// Floods of new identities or addresses keep the maps at their capacity, and the deadline queue
    /// near it; a beacon heard more often than the flood fills the map survives (second chance).
    @Test func memoryIsBoundedUnderFloods() {
        var d = Driver(interval: 60, capacity: 16)
        d.identity(uid, at: 0, from: address)
        for i in 0..<20_000 {
            let s = Double(i) * 0.001
            let flood = BluetoothAddress(rawValue: 0x1000 + UInt64(i))
            d.identity(Fixtures.beacon(UInt16(i % 60_000), major: 9), at: s, from: flood)
            d.frame(Self.tlm(3000), at: s, from: BluetoothAddress(rawValue: 0x100000 + UInt64(i)))
            if i % 8 == 0 { d.identity(uid, at: s, from: address) }
        }
        #expect(d.tracker.trackedCount == 16)
        #expect(d.tracker.trackedAddresses == 32)
        #expect(d.tracker.queuedDeadlines <= 2 * 16 + 64)
        #expect(d.tracker.telemetry(of: uid) != nil, "the beacon heard throughout is kept")
        // Its address may have been pushed out by the flood: a TLM is then held and attached at the
        // beacon's next identity frame (it revisits the address map at least once a second).
        d.frame(Self.tlm(2900), at: 21, from: address)
        d.identity(uid, at: 22.5, from: address)
        #expect(d.tracker.telemetry(of: uid)?.tlm?.batteryMillivolts == 2900)
    }

    /// Rows follow the monitor's slots: a slot reused by another beacon starts that beacon afresh and
    /// the old beacon's window never publishes under it; a beacon tracked again after its eviction
    /// starts afresh too, with one message per window (no second row left behind).
    @Test func rowsFollowTheMonitorsSlotsThroughEvictionAndReuse() {
        var d = Driver(interval: 10, capacity: 2)
        let a = Fixtures.beacon(1)
        let b = Fixtures.beacon(2)
        let c = Fixtures.beacon(3)
        d.identity(a, at: 0, from: address)
        #expect(d.frame(Self.tlm(3000), at: 0.5, from: address).map(\.identity) == [a])
        d.identity(b, at: 1, from: other)
        // c takes a's slot (a is the least recently seen): a's row goes, a's window stays silent.
        d.identity(c, at: 2, from: address)
        #expect(d.tracker.telemetry(of: a) == nil)
        #expect(d.tracker.telemetry(of: c)?.tlm == nil, "c does not inherit a's TLM")
        #expect(d.tracker.trackedCount == 2)
        #expect(d.advance(10.5).isEmpty, "a's window (due at 10.5) belonged to the row c now has")
        #expect(d.advance(11).map(\.identity) == [b])
        #expect(d.advance(12).map(\.identity) == [c])
        #expect(d.out.filter { $0.identity == a }.map(\.timestamp) == [Fixtures.at(0.5)])
        // a comes back (evicting b): a new stay, a first message one interval later, and only one.
        d.identity(a, at: 13, from: address)
        #expect(d.tracker.telemetry(of: b) == nil)
        #expect(d.advance(22.9).isEmpty)
        #expect(d.advance(23).map(\.identity) == [a])
        #expect(d.tracker.trackedCount == 2)
    }

    /// After the broker lost its retained messages: the latest telemetry of every beacon that has
    /// published, at once, with the rate limit's windows left as they were.
    @Test func republishingGivesTheLatestOfEveryPublishedBeaconAndLeavesTheWindows() {
        var d = Driver(interval: 60)
        d.identity(uid, at: 0, from: address)
        d.frame(Self.tlm(3000), at: 1, from: address)
        d.identity(ibeacon, at: 2, from: other)
        d.frame(Self.tlm(2900), at: 5, from: address)
        var e: [MonitoringEvent] = []
        d.tracker.republishRetained(into: &e)
        let again = d.collect(e)
        #expect(again.map(\.identity) == [uid], "the iBeacon has published nothing yet")
        #expect(again.first?.tlm?.batteryMillivolts == 2900)
        #expect(again.first?.timestamp == Fixtures.at(5))
        #expect(d.advance(60.9).isEmpty)
        #expect(d.advance(61).map(\.identity) == [uid], "the window still ends where it did")
        #expect(d.advance(62).map(\.identity) == [ibeacon])
    }

    @Test func aForgottenBeaconsWindowEndsWithoutAMessage() {
        var d = Driver(interval: 10)
        d.identity(uid, at: 0, from: address)
        d.tracker.forget(uid)
        #expect(d.tracker.telemetry(of: uid) == nil)
        #expect(d.advance(20).isEmpty)
        #expect(d.frame(Self.tlm(3000), at: 21, from: address).isEmpty)
    }
}
