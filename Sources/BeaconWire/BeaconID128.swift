/// A 128-bit beacon identifier, kept big-endian as it is transmitted: an iBeacon proximity UUID,
/// an AltBeacon id1, or an Eddystone-UID namespace (10 bytes) followed by its instance (6 bytes).
import Vocabulary

public struct BeaconID128: Hashable, Sendable, Comparable {
    /// Bytes 0–7, first transmitted byte most significant.
    public var high: UInt64
    /// Bytes 8–15.
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The 16 bytes in transmission order.
    public var bytes: [UInt8] {
        (0..<16).map { i in
            let word = i < 8 ? high : low
            return UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (i % 8)))
        }
    }

    /// Lowercase UUID text with dashes: `e2c56db5-dffb-48d2-b060-d0f5a71096e0`.
    public var uuidString: String {
        var out: [UInt8] = []
        out.reserveCapacity(36)
        appendUUID(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `uuidString`'s text, appended as bytes.
    public func appendUUID(to out: inout [UInt8]) {
        let high = high
        let low = low
        ASCIIText.appendFixedWidth(36, to: &out) { text in
            var at = 0
            func put(_ word: UInt64, _ shift: Int) {
                let byte = UInt8(truncatingIfNeeded: word >> UInt64(shift))
                text[at] = ASCIIText.hexDigit(byte >> 4)
                text[at + 1] = ASCIIText.hexDigit(byte & 0xF)
                at += 2
            }
            for shift in stride(from: 56, through: 0, by: -8) {
                if shift == 24 || shift == 8 {
                    text[at] = 0x2D
                    at += 1
                }
                put(high, shift)
            }
            for shift in stride(from: 56, through: 0, by: -8) {
                if shift == 56 || shift == 40 {
                    text[at] = 0x2D
                    at += 1
                }
                put(low, shift)
            }
        }
    }

    /// Parses a UUID with or without dashes (case-insensitive); nil when malformed.
    /// 32 hex digits, most significant first, with any number of `-` anywhere (the UUID text form
    /// and the bare one); nil for anything else. Reads the UTF-8 bytes once: the locator parses an
    /// identity from every topic it receives.
    public init?(uuidString text: String) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for c in text.utf8 where c != 0x2D {
            guard digits < 32, let v = Hex.nibble(c) else { return nil }
            if digits < 16 { high = high << 4 | UInt64(v) } else { low = low << 4 | UInt64(v) }
            digits += 1
        }
        guard digits == 32 else { return nil }
        self.init(high: high, low: low)
    }

    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}
