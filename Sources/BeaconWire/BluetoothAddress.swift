/// A 48-bit Bluetooth device address (BD_ADDR).
///
/// Core Spec Vol 2, Part B, §1.2. On the HCI wire the address is little-endian; it is printed
/// most significant byte first, as `aa:bb:cc:dd:ee:ff`.
import Vocabulary

public struct BluetoothAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The address as a 48-bit integer; bits 40–47 are the first printed byte.
    public var rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue & 0xFFFF_FFFF_FFFF }

    /// Builds an address from the six bytes as they appear on the HCI wire (least significant first).
    public init(littleEndianBytes b: some Collection<UInt8>) {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in b.prefix(6) {
            value |= UInt64(byte) << shift
            shift += 8
        }
        self.init(rawValue: value)
    }

    /// Parses `aa:bb:cc:dd:ee:ff` (case-insensitive); nil when malformed.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var value: UInt64 = 0
        for part in parts {
            guard let byte = Hex.bytes(part, digits: 2) else { return nil }
            value = value << 8 | UInt64(byte[0])
        }
        self.init(rawValue: value)
    }

    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(17)
        appendText(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `description`'s text, appended as bytes.
    public func appendText(to out: inout [UInt8]) {
        let raw = rawValue
        ASCIIText.appendFixedWidth(17, to: &out) { text in
            var at = 0
            for index in stride(from: 40, through: 0, by: -8) {
                let byte = UInt8(truncatingIfNeeded: raw >> UInt64(index))
                text[at] = ASCIIText.hexDigit(byte >> 4)
                text[at + 1] = ASCIIText.hexDigit(byte & 0xF)
                if index > 0 { text[at + 2] = 0x3A }
                at += 3
            }
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
