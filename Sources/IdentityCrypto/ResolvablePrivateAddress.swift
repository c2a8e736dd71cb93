import BeaconCore
import BeaconWire
import CCrypto

/// Making keys and resolvable private addresses, as a device does (Core Spec Vol 6, Part B,
/// §1.3.2.2): for `irk generate`, the tests and the advertising side. Randomness is libcrypto's
/// `RAND_bytes` (the kernel's generator, DRBG-stretched).
package enum ResolvablePrivateAddress {
    /// The RPA `prand ‖ ah(key, prand)`; `prand`'s top two bits are forced to 01.
    package static func make(key: IdentityResolvingKey, prand: UInt32) -> BluetoothAddress {
        let p = prand & 0x3F_FFFF | 0x40_0000
        let hash = AESIdentityResolver(keys: [key]).hash(key: 0, prand: p)
        return BluetoothAddress(rawValue: UInt64(p) << 24 | UInt64(hash))
    }

    /// A fresh RPA for `key`: random `prand` whose random part is neither all zeros nor all ones.
    package static func random(for key: IdentityResolvingKey) -> BluetoothAddress {
        while true {
            let bits = randomBytes(3)
            let random = (UInt32(bits[0]) << 16 | UInt32(bits[1]) << 8 | UInt32(bits[2])) & 0x3F_FFFF
            if random != 0 && random != 0x3F_FFFF { return make(key: key, prand: random) }
        }
    }

    /// A fresh random key.
    package static func randomKey() -> IdentityResolvingKey {
        IdentityResolvingKey(bytes: randomBytes(16))!
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(ok == 1, "RAND_bytes failed")
        return out
    }
}
