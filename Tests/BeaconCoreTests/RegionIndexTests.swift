import BeaconWire
import TestFixtures
import Testing

@testable import BeaconCore

@Suite struct RegionIndexTests {
    static let a = Fixtures.uuidA
    static let b = Fixtures.uuidB

    /// Names of the regions `id` matches, through the index.
    static func matched(_ index: RegionIndex, _ id: BeaconIdentity) -> [String] {
        index.positions(index.matchList(for: id)).map { index.regions[Int(index.region(at: $0))].name }
    }

    /// The definition the index must agree with: every identifier the region specifies is equal.
    static func bruteForce(_ regions: [BeaconRegion], _ id: BeaconIdentity) -> [String] {
        regions.filter { r in
            guard r.scheme == id.scheme else { return false }
            switch r.scheme {
            case .uuid:
                return r.uuid == id.id && (r.major.map { $0 == id.major } ?? true)
                    && (r.minor.map { $0 == id.minor } ?? true)
            case .eddystone:
                return r.uuid.high == id.id.high && r.uuid.low >> 48 == id.id.low >> 48
                    && (r.instance.map { $0 == id.id.low & RegionIndex.instanceMask } ?? true)
            case .device:
                return false
            }
        }.map(\.name)
    }

    static let regions: [BeaconRegion] = [
        BeaconRegion(name: "all-a", uuid: a),
        BeaconRegion(name: "a-7", uuid: a, major: 7),
        BeaconRegion(name: "a-7-1", uuid: a, major: 7, minor: 1),
        BeaconRegion(name: "a-8-1", uuid: a, major: 8, minor: 1),
        BeaconRegion(name: "b-7", uuid: b, major: 7),
        BeaconRegion(name: "a-7-again", uuid: a, major: 7),
        BeaconRegion(name: "ns", scheme: .eddystone, uuid: BeaconID128(high: 0x1122_3344_5566_7788, low: 0x99AA << 48)),
        BeaconRegion(
            name: "ns-inst", scheme: .eddystone, uuid: BeaconID128(high: 0x1122_3344_5566_7788, low: 0x99AA << 48),
            instance: 0x0000_0000_0042),
    ]

    @Test func matchesEveryLevelAndOnlyThose() {
        let index = RegionIndex(Self.regions)
        #expect(Self.matched(index, .uuid(Self.a, major: 7, minor: 1)) == ["all-a", "a-7", "a-7-1", "a-7-again"])
        #expect(Self.matched(index, .uuid(Self.a, major: 7, minor: 2)) == ["all-a", "a-7", "a-7-again"])
        #expect(Self.matched(index, .uuid(Self.a, major: 8, minor: 1)) == ["all-a", "a-8-1"])
        #expect(Self.matched(index, .uuid(Self.a, major: 8, minor: 2)) == ["all-a"])
        #expect(Self.matched(index, .uuid(Self.b, major: 7, minor: 9)) == ["b-7"])
        #expect(index.matchList(for: .uuid(Self.b, major: 6, minor: 9)) == RegionIndex.none)
        let ns = BeaconID128(high: 0x1122_3344_5566_7788, low: 0x99AA << 48)
        #expect(
            Self.matched(
                index,
                BeaconIdentity(
                    scheme: .eddystone, id: BeaconID128(high: ns.high, low: ns.low | 0x42), major: 0, minor: 0)) == [
                    "ns", "ns-inst",
                ])
        #expect(
            Self.matched(
                index,
                BeaconIdentity(
                    scheme: .eddystone, id: BeaconID128(high: ns.high, low: ns.low | 0x43), major: 0, minor: 0)) == [
                    "ns"
                ])
    }

    /// A thousand regions on one UUID (one per major), plus wildcards: the index agrees with the
    /// definition for identities inside and outside every region.
    @Test func agreesWithTheDefinitionOnManyRegions() {
        var regions = (0..<1_000).map { BeaconRegion(name: "m\($0)", uuid: Self.a, major: UInt16($0)) }
        regions += [
            BeaconRegion(name: "any", uuid: Self.a), BeaconRegion(name: "m5-3", uuid: Self.a, major: 5, minor: 3),
        ]
        let index = RegionIndex(regions)
        var checked = 0
        for major in stride(from: 0, to: 1_100, by: 7) {
            for minor in [0, 3, 65_535] as [UInt16] {
                let id = BeaconIdentity.uuid(Self.a, major: UInt16(major), minor: minor)
                #expect(Self.matched(index, id) == Self.bruteForce(regions, id))
                checked += 1
            }
        }
        let five = BeaconIdentity.uuid(Self.a, major: 5, minor: 3)
        #expect(Self.matched(index, five) == ["m5", "any", "m5-3"])
        #expect(checked > 400)
    }

    @Test func emptyIndexMatchesNothing() {
        let index = RegionIndex([])
        #expect(index.isEmpty)
        #expect(index.matchList(for: .uuid(Self.a, major: 1, minor: 1)) == RegionIndex.none)
        #expect(index.positions(RegionIndex.none).isEmpty)
    }
}
