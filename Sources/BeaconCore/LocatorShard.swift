import BeaconWire

/// One of `count` locators that share a site's beacons (`locator.shard: k/n`). Every locator still
/// subscribes to every gateway's messages (an MQTT topic filter cannot select a hash), and keeps
/// only the beacons whose identity hashes to its shard, so each decides a disjoint share and all
/// together decide each beacon exactly once; gateway status is read by all.
///
/// The hash is FNV-1a (64 bit) over the identity as bytes, big-endian: scheme (0 iBeacon/AltBeacon,
/// 1 Eddystone, 2 device), the 16-byte id, major, minor. A device's id is its name's hash, so every
/// locator, whatever it has learnt, puts a beacon in the same shard.
package struct LocatorShard: Sendable, Equatable, CustomStringConvertible {
    /// 1…count.
    package let index: Int
    package let count: Int

    /// nil unless 1 ≤ index ≤ count.
    package init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `k/n`, as the configuration spells it.
    package var description: String { "\(index)/\(count)" }

    /// Whether this shard decides `beacon`.
    package func owns(_ beacon: BeaconIdentity) -> Bool {
        count == 1 || Int(Self.hash(beacon) % UInt64(count)) == index - 1
    }

    package static func hash(_ b: BeaconIdentity) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ value: UInt64, bytes: Int) {
            for i in stride(from: bytes - 1, through: 0, by: -1) {
                h = (h ^ ((value >> UInt64(8 * i)) & 0xFF)) &* 0x0000_0100_0000_01B3
            }
        }
        mix(UInt64(b.scheme.rawValue), bytes: 1)
        mix(b.id.high, bytes: 8)
        mix(b.id.low, bytes: 8)
        mix(UInt64(b.major), bytes: 2)
        mix(UInt64(b.minor), bytes: 2)
        return h
    }
}
