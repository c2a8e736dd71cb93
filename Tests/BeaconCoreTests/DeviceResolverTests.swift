import BeaconCore
import BeaconWire
import IdentityCrypto
import TestFixtures
import Testing

/// Which configured device a report comes from: fixed addresses, RPAs resolved once and cached,
/// unknown RPAs counted and forgotten.
@Suite struct DeviceResolverTests {
    static let sampleKey = IdentityResolvingKey(text: "ec0234a357c8ad05341010a60a397d9b")!
    static let tag = BluetoothAddress("c1:02:03:04:05:06")!

    static func resolver(keys: [IdentityResolvingKey] = [sampleKey]) -> DeviceResolver {
        var devices = keys.enumerated().map { i, k in DeviceSettings(name: "phone-\(i)", identification: .irk(k)) }
        devices.append(DeviceSettings(name: "tag", identification: .address(tag)))
        return DeviceResolver(devices: devices, makeResolver: AESIdentityResolver.factory)
    }

    @Test func theSpecSampleAddressIsTheFirstPhone() throws {
        var r = Self.resolver()
        let found = r.sighting(
            address: BluetoothAddress("70:81:94:0d:fb:aa")!, addressType: 1, rssi: -61, at: Fixtures.t0)
        let s = try #require(found)
        #expect(s.identity == .device(named: "phone-0"))
        #expect(s.kind == .irk)
        #expect(s.address == BluetoothAddress("70:81:94:0d:fb:aa"))
        #expect(s.rssi == -61 && s.timestamp == Fixtures.t0 && s.measuredPower == nil)
        #expect(r.resolved == 1 && r.unresolved == 0)
    }

    @Test func aFixedAddressIsItsDeviceWhateverItsType() throws {
        var r = Self.resolver()
        for type: UInt8 in [0, 1] {
            let found = r.sighting(address: Self.tag, addressType: type, rssi: -70, at: Fixtures.t0)
            let s = try #require(found)
            #expect(s.identity == .device(named: "tag") && s.kind == .address)
        }
        #expect(r.resolutions == 0)
    }

    @Test func aResolvedAddressCostsOneResolutionThenHashLookups() {
        let keys = (0..<50).map { _ in ResolvablePrivateAddress.randomKey() }
        var r = Self.resolver(keys: keys)
        let address = ResolvablePrivateAddress.random(for: keys[37])
        for _ in 0..<100 {
            #expect(
                r.sighting(address: address, addressType: 1, rssi: -60, at: Fixtures.t0)?.identity
                    == .device(named: "phone-37"))
        }
        #expect(r.resolutions == 1 && r.resolved == 100)
    }

    @Test func rotationKeepsTheCacheBoundedPerDevice() {
        var r = Self.resolver()
        var addresses: [BluetoothAddress] = []
        for _ in 0..<20 {
            let a = ResolvablePrivateAddress.random(for: Self.sampleKey)
            addresses.append(a)
            #expect(
                r.sighting(address: a, addressType: 1, rssi: -60, at: Fixtures.t0)?.identity
                    == .device(named: "phone-0"))
        }
        #expect(r.cachedAddresses == DeviceResolver.addressesPerDevice)
        // The latest ones are cached; an old one is resolved again (and still is the device).
        let before = r.resolutions
        _ = r.sighting(address: addresses.last!, addressType: 1, rssi: -60, at: Fixtures.t0)
        #expect(r.resolutions == before)
        #expect(r.sighting(address: addresses[0], addressType: 1, rssi: -60, at: Fixtures.t0) != nil)
        #expect(r.resolutions == before + 1)
    }

    @Test func unknownPrivateAddressesAreCountedAndForgotten() {
        var r = Self.resolver()
        for _ in 0..<1000 {
            let stranger = ResolvablePrivateAddress.random(for: ResolvablePrivateAddress.randomKey())
            #expect(r.sighting(address: stranger, addressType: 1, rssi: -60, at: Fixtures.t0) == nil)
        }
        #expect(r.unresolved == 1000 && r.resolved == 0)
        #expect(r.cachedAddresses == 0)
    }

    @Test func onlyRandomAddressesOfTheResolvableFormAreResolved() {
        var r = Self.resolver()
        // The sample RPA reported as a public address: not private, not looked at.
        #expect(
            r.sighting(address: BluetoothAddress("70:81:94:0d:fb:aa")!, addressType: 0, rssi: -60, at: Fixtures.t0)
                == nil)
        // A static random and a non-resolvable private address: no AES either.
        for text in ["c0:81:94:0d:fb:aa", "30:81:94:0d:fb:aa"] {
            #expect(r.sighting(address: BluetoothAddress(text)!, addressType: 1, rssi: -60, at: Fixtures.t0) == nil)
        }
        #expect(r.resolutions == 0 && r.unresolved == 0)
    }

    @Test func withoutACipherIRKDevicesNeverResolve() {
        var r = DeviceResolver(
            devices: [DeviceSettings(name: "p", identification: .irk(Self.sampleKey))], makeResolver: nil)
        #expect(!r.isEmpty)
        #expect(
            r.sighting(address: BluetoothAddress("70:81:94:0d:fb:aa")!, addressType: 1, rssi: -60, at: Fixtures.t0)
                == nil)
    }

    @Test func deviceIdentitiesFollowTheNameOnly() {
        #expect(BeaconIdentity.device(named: "alice-phone") == .device(named: "alice-phone"))
        #expect(BeaconIdentity.device(named: "alice-phone") != .device(named: "alice-phone2"))
        #expect(BeaconIdentity.device(named: "a").scheme == .device)
        var seen = Set<BeaconIdentity>()
        for i in 0..<10_000 { seen.insert(.device(named: "device-\(i)")) }
        #expect(seen.count == 10_000)
    }
}
