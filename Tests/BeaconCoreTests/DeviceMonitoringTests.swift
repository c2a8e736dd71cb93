import BeaconCore
import BeaconWire
import IdentityCrypto
import Settings
import TestFixtures
import Testing
import Vocabulary

/// Devices are monitored like beacons, one by one, whatever address they advertise from.
@Suite struct DeviceMonitoringTests {
    static let phone = BeaconIdentity.device(named: "alice-phone")
    static let key = IdentityResolvingKey(text: "ec0234a357c8ad05341010a60a397d9b")!

    static func config(exitTimeout: TimeSpan? = nil) -> Configuration {
        // Regions configured and per_beacon off: neither keeps a device from being monitored.
        var c = Fixtures.regionConfig()
        c.devices = [DeviceSettings(name: "alice-phone", identification: .irk(key), exitTimeout: exitTimeout)]
        return c
    }

    static func sighting(_ address: BluetoothAddress, at seconds: Double, rssi: Int8 = -60) -> BeaconSighting {
        BeaconSighting(
            identity: phone, kind: .irk, address: address, rssi: rssi, measuredPower: nil,
            timestamp: Fixtures.at(seconds))
    }

    static func enters(_ events: [MonitoringEvent]) -> [TransitionBeacon] {
        events.compactMap { if case .beaconDidEnter(let b, _) = $0 { b } else { nil } }
    }

    static func exits(_ events: [MonitoringEvent]) -> [(TransitionBeacon, Timestamp)] {
        events.compactMap { if case .beaconDidExit(let b, let t, _) = $0 { (b, t) } else { nil } }
    }

    @Test func rotationIsNotAnExit() {
        var h = EventHarness(Self.config())
        let addresses = (0..<4).map { _ in ResolvablePrivateAddress.random(for: Self.key) }
        // Four addresses, one after another, 1 s apart for 20 s each: no gap reaches the 10 s timeout.
        var t = 0.0
        for a in addresses {
            for _ in 0..<20 {
                h.see(Self.sighting(a, at: t))
                t += 1
            }
        }
        h.advance(t + 30)
        let enters = Self.enters(h.out)
        #expect(enters.count == 1)
        #expect(enters.first?.name == "alice-phone" && enters.first?.address == addresses[0])
        let exits = Self.exits(h.out)
        #expect(exits.count == 1)
        // The exit names the address it was last heard from, at last sighting + exit timeout.
        #expect(exits.first?.0.address == addresses[3])
        #expect(exits.first?.1 == Fixtures.at(t - 1 + 10))
        // One table slot: the RSSI history carried across the rotations.
        #expect(h.monitor.trackedBeacons.count == 1)
        #expect(h.monitor.trackedBeacons.first?.seenCount == 80)
    }

    @Test func theDevicesExitTimeoutApplies() {
        var h = EventHarness(Self.config(exitTimeout: .seconds(45)))
        h.see(Self.sighting(ResolvablePrivateAddress.random(for: Self.key), at: 0))
        h.advance(44)
        #expect(Self.exits(h.out).isEmpty)
        h.advance(46)
        #expect(Self.exits(h.out).map(\.1) == [Fixtures.at(45)])
    }

    @Test func aDeviceIsRangedWithTheDefaultMeasuredPowerOrItsOwn() {
        var c = Self.config()
        c.ranging.publish.heartbeat = .zero
        c.devices[0].measuredPower = -70
        var h = EventHarness(c)
        h.see(Self.sighting(ResolvablePrivateAddress.random(for: Self.key), at: 0, rssi: -70))
        h.advance(1.5)
        let ranged = h.out.compactMap { if case .didRangeBeacon(let b, _) = $0 { b } else { nil } }
        #expect(ranged.count == 1)
        #expect(ranged.first?.identity == Self.phone && ranged.first?.measuredPower == -70)
        #expect(ranged.first.map { abs($0.accuracy - 1.0) < 0.2 } == true)
    }

    @Test func removingTheDeviceOnReloadWithdrawsItsState() {
        var h = EventHarness(Self.config())
        h.see(Self.sighting(ResolvablePrivateAddress.random(for: Self.key), at: 0))
        var events: [MonitoringEvent] = []
        var c = Self.config()
        c.devices = []
        h.subject.reconfigure(MonitorSettings(c), at: Fixtures.at(1), into: &events)
        #expect(events.contains(.didStopMonitoringBeacon(Self.phone)))
        #expect(h.subject.trackedBeacons.isEmpty)
    }

    @Test func keepingTheDeviceOnReloadKeepsItsState() {
        var h = EventHarness(Self.config())
        h.see(Self.sighting(ResolvablePrivateAddress.random(for: Self.key), at: 0))
        var events: [MonitoringEvent] = []
        var c = Self.config()
        c.regions = []
        h.subject.reconfigure(MonitorSettings(c), at: Fixtures.at(1), into: &events)
        #expect(!events.contains(.didStopMonitoringBeacon(Self.phone)))
        #expect(h.subject.trackedBeacons.first?.state == .inside)
    }

    @Test func aRestoredDeviceStaysInsideWithoutANewEnter() {
        var h = EventHarness(Self.config())
        h.subject.restore([
            RestoredState(
                subject: .beacon(Self.phone), state: .inside, since: Fixtures.at(-60), lastSeen: Fixtures.at(-1))
        ])
        h.see(Self.sighting(ResolvablePrivateAddress.random(for: Self.key), at: 2))
        #expect(Self.enters(h.out).isEmpty)
        #expect(h.monitor.trackedBeacons.first?.kind == .irk)
        // An unconfigured device's retained state is not taken back.
        var other = EventHarness(Self.config())
        other.subject.restore([
            RestoredState(
                subject: .beacon(.device(named: "bob")), state: .inside, since: Fixtures.at(-60),
                lastSeen: Fixtures.at(-1))
        ])
        #expect(other.monitor.trackedBeacons.isEmpty)
    }
}
