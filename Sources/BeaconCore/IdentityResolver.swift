import BeaconWire

/// The random address hash function `ah` (Core Spec Vol 3, Part H, §2.2.2) over a fixed list of
/// identity resolving keys: which key, if any, a resolvable private address was made from.
///
/// `ah(k, r) = e(k, r') mod 2^24`, where `e` is AES-128 and `r'` is 13 zero octets followed by the
/// 24-bit `prand`, both most significant octet first (Vol 3, Part H, §2.2.1). An RPA is `prand`
/// (its top 24 bits, top two bits 01) then `hash` (its low 24 bits) (Vol 6, Part B, §1.3.2.2).
///
/// A protocol so that the pure modules never carry the cipher: the implementation over libcrypto
/// (IdentityCrypto's `AESIdentityResolver`) is handed in by the command line.
package protocol IdentityResolver: Sendable {
    /// How many keys there are; `resolve` answers an index below it.
    var keyCount: Int { get }
    /// The index of the first key `k` with `ah(k, prand) == hash` (both in the low 24 bits).
    func resolve(prand: UInt32, hash: UInt32) -> Int?
}

/// Makes the resolver for the configured keys (in their order); called again on a reload.
package typealias IdentityResolverFactory = @Sendable ([IdentityResolvingKey]) -> any IdentityResolver

extension BluetoothAddress {
    /// Top two bits 01: a resolvable private address, when the advertiser says its address is
    /// random (Core Spec Vol 6, Part B, §1.3.2.2).
    package var hasResolvablePrivateForm: Bool { rawValue >> 46 == 0b01 }
    /// Top two bits 11: a static random address (Vol 6, Part B, §1.3.2.1).
    package var hasStaticRandomForm: Bool { rawValue >> 46 == 0b11 }
    /// The RPA's `prand`: its most significant 24 bits.
    package var prand: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 24) }
    /// The RPA's `hash`: its least significant 24 bits.
    package var addressHash: UInt32 { UInt32(truncatingIfNeeded: rawValue & 0xFF_FFFF) }
}
