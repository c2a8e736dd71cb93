import Vocabulary

/// Hexadecimal text, the one reader and writer: addresses, identities, keys, configuration values,
/// hcidump captures and `decode`'s input all parse through it.
public enum Hex {
    /// Lowercase hex of `bytes`, no separators.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        for byte in bytes { ASCIIText.appendHex(byte, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses an even-length hex string (whitespace ignored); nil when malformed.
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for c in text.utf8 {
            guard let v = nibble(c) else {
                if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { continue }
                return nil
            }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return high == nil ? out : nil
    }

    /// Exactly `digits` hex digits (either case, nothing else), as bytes; nil for anything else.
    public static func bytes(_ text: some StringProtocol, digits: Int) -> [UInt8]? {
        guard text.utf8.count == digits, digits % 2 == 0, text.utf8.allSatisfy({ nibble($0) != nil }) else {
            return nil
        }
        return bytes(text)
    }

    /// The value of one ASCII hex digit (either case); nil for any other byte.
    @inlinable
    public static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x37
        case 0x61...0x66: c - 0x57
        default: nil
        }
    }
}
