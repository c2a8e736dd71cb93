import BeaconCore
import BeaconWire
import TestFixtures
import Testing

/// `locator.shard`: which locator of n decides a beacon.
@Suite struct LocatorShardTests {
    static func identities(_ rng: inout SeededRandom, count: Int) -> [BeaconIdentity] {
        (0..<count).map { i in
            switch i % 3 {
            case 0:
                return .uuid(
                    BeaconID128(high: rng.next(), low: rng.next()), major: UInt16(truncatingIfNeeded: rng.next()),
                    minor: UInt16(truncatingIfNeeded: rng.next()))
            case 1: return .eddystone(BeaconID128(high: rng.next(), low: rng.next() & 0xFFFF_FFFF_FFFF))
            default: return .device(named: "phone-\(i)")
            }
        }
    }

    @Test func everyBeaconBelongsToExactlyOneShardAndTheSharesAreEven() {
        var rng = SeededRandom(state: 5)
        let beacons = Self.identities(&rng, count: 30_000)
        for n in [1, 2, 3, 7, 16] {
            let shards = (1...n).map { LocatorShard(index: $0, count: n)! }
            var sizes = Array(repeating: 0, count: n)
            for b in beacons {
                let owners = shards.indices.filter { shards[$0].owns(b) }
                #expect(owners.count == 1, "\(b) in \(n) shards")
                if let o = owners.first { sizes[o] += 1 }
            }
            // Within 5 % of an even split (30,000 / n).
            let even = Double(beacons.count) / Double(n)
            #expect(sizes.allSatisfy { abs(Double($0) - even) < 0.05 * even }, "n=\(n): \(sizes)")
        }
    }

    /// The documented hash (docs/locator.md): FNV-1a over scheme, id, major, minor, big-endian, so a
    /// tool in another language can tell which locator decides a beacon.
    @Test func theHashIsFNV1aOverTheIdentityBytesAsDocumented() {
        func fnv(_ bytes: [UInt8]) -> UInt64 {
            bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        }
        let b = Fixtures.beacon(7, major: 0x0102)
        let bytes: [UInt8] = [0] + b.id.bytes + [0x01, 0x02, 0x00, 0x07]
        #expect(LocatorShard.hash(b) == fnv(bytes))
        let e = BeaconIdentity.eddystone(BeaconID128(high: 0x0011_2233_4455_6677, low: 0x8899_AABB_CCDD_EEFF))
        #expect(LocatorShard.hash(e) == fnv([1] + e.id.bytes + [0, 0, 0, 0]))
        #expect(LocatorShard(index: 1, count: 2)!.owns(b) == (fnv(bytes) % 2 == 0))
    }

    @Test func shardNumbersOutsideOneToNAreNone() {
        #expect(LocatorShard(index: 0, count: 2) == nil)
        #expect(LocatorShard(index: 3, count: 2) == nil)
        #expect(LocatorShard(index: 1, count: 0) == nil)
        #expect(LocatorShard(index: 2, count: 2)?.description == "2/2")
    }
}
