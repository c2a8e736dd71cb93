import BeaconWire

/// An identity resolving key (IRK): the 128-bit key a phone, watch or tag hands over at pairing and
/// derives its resolvable private addresses from (Core Spec Vol 3, Part H, §2.4.2.1 and §2.2.2).
///
/// Byte order: `high`/`low` hold the key most significant octet first — the order the Core Spec's
/// sample data prints it (`ec0234a357c8ad05341010a60a397d9b`), the order Home Assistant's and
/// ESPresense's hex form uses, and the order AES-128 takes its key in (FIPS-197: byte 0 first).
/// Home Assistant's base64 form (the macOS/iOS keychain's) carries the same 16 octets least
/// significant first, so it is reversed when read.
///
/// A secret: whoever holds it can follow the device. `description` never prints it; `hex` does, for
/// `irk generate` only.
package struct IdentityResolvingKey: Sendable, Hashable, CustomStringConvertible {
    /// Octets 0–7 (most significant first).
    package var high: UInt64
    /// Octets 8–15.
    package var low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// From 16 octets, most significant first; nil for any other count.
    package init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        let b = Array(bytes)
        self.init(high: ByteReader.uint64(b, at: 0, .bigEndian), low: ByteReader.uint64(b, at: 8, .bigEndian))
    }

    /// 32 hex digits (most significant first), or Home Assistant's base64 (ending in `=`, octets
    /// reversed); either may start with `irk:`, as Home Assistant accepts. nil when neither.
    package init?(text: String) {
        var t = Substring(text)
        if t.hasPrefix("irk:") { t = t.dropFirst(4) }
        if t.hasSuffix("=") {
            guard let raw = Base64.decode(t), let key = Self(bytes: raw.reversed()) else { return nil }
            self = key
        } else {
            guard let raw = Hex.bytes(t, digits: 32), let key = Self(bytes: raw) else { return nil }
            self = key
        }
    }

    /// The 16 octets, most significant first (the AES key).
    package var bytes: [UInt8] {
        (0..<16).map { i in UInt8(truncatingIfNeeded: (i < 8 ? high : low) >> UInt64(56 - 8 * (i % 8))) }
    }

    /// 32 lowercase hex digits, most significant first.
    package var hex: String { Hex.string(bytes) }

    /// Home Assistant's base64 form (octets least significant first).
    package var base64: String { Base64.encode(bytes.reversed()) }

    /// Never the key itself.
    package var description: String { "IdentityResolvingKey(redacted)" }
}
