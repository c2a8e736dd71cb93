/// A string's or number's bytes in a `JSONReader`'s text: for a string, between the quotes and
/// still escaped. Decode it with the reader that produced it (`string(_:)`, `number(_:)`).
package struct JSONText: Equatable, Sendable {
    package var range: Range<Int>
    /// The string holds at least one backslash escape (so its bytes are not its value).
    package var escaped: Bool

    package init(range: Range<Int>, escaped: Bool) {
        self.range = range
        self.escaped = escaped
    }
}

extension JSONReader {
    /// The text as written: a number's digits, or a string's bytes with escapes left in.
    package func raw(_ text: JSONText) -> String {
        String(decoding: bytes[text.range], as: UTF8.self)
    }

    /// A string's value, escapes decoded (the reader checked them, so this cannot fail).
    package func string(_ text: JSONText) -> String {
        guard text.escaped else { return raw(text) }
        var out = String.UnicodeScalarView()
        var plain = text.range.lowerBound
        var at = plain
        bytes.withUnsafeBufferPointer { b in
            func flush(_ upTo: Int) {
                out.append(
                    contentsOf: String(decoding: UnsafeBufferPointer(rebasing: b[plain..<upTo]), as: UTF8.self)
                        .unicodeScalars)
            }
            while at < text.range.upperBound {
                guard b[at] == UInt8(ascii: "\\") else {
                    at += 1
                    continue
                }
                flush(at)
                let (scalar, length) = Self.unescape(b, at)
                out.append(scalar)
                at += length
                plain = at
            }
            flush(at)
        }
        return String(out)
    }

    /// A number's value (nil for anything but a number token's text; huge exponents give ±infinity).
    package func number(_ text: JSONText) -> Double? {
        fastNumber(text) ?? Double(raw(text))
    }

    /// Clinger's fast path: up to 15 significant digits and no exponent, so the digits and the power
    /// of ten are exact doubles and one division rounds correctly — what the payloads' `-59`, `1.01`
    /// are. Anything else goes to `Double(String)`.
    private func fastNumber(_ text: JSONText) -> Double? {
        guard text.range.count <= 17 else { return nil }
        var at = text.range.lowerBound
        let negative = bytes[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var decimals = 0
        var point = false
        while at < text.range.upperBound {
            let byte = bytes[at]
            at += 1
            if byte == UInt8(ascii: ".") {
                point = true
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }  // an exponent
            mantissa = mantissa * 10 + UInt64(digit)
            digits += 1
            if point { decimals += 1 }
        }
        guard digits <= 15 else { return nil }
        let value = Double(mantissa) / Self.powersOfTen[decimals]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...15).map { Double("1e\($0)")! }

    /// Whether a string's value is `value`, without building a `String` when it has no escapes.
    package func matches(_ text: JSONText, _ value: String) -> Bool {
        guard !text.escaped else { return string(text) == value }
        guard text.range.count == value.utf8.count else { return false }
        var value = value
        return value.withUTF8 { wanted in
            bytes.withUnsafeBufferPointer { b in
                wanted.elementsEqual(UnsafeBufferPointer(rebasing: b[text.range]))
            }
        }
    }

    /// The escape at `at` (its backslash, already checked by the reader) and its length in bytes.
    private static func unescape(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> (Unicode.Scalar, Int) {
        switch b[at + 1] {
        case UInt8(ascii: "b"): return ("\u{08}", 2)
        case UInt8(ascii: "f"): return ("\u{0C}", 2)
        case UInt8(ascii: "n"): return ("\n", 2)
        case UInt8(ascii: "r"): return ("\r", 2)
        case UInt8(ascii: "t"): return ("\t", 2)
        case UInt8(ascii: "u"):
            let high = (try? hex4(b, at + 2)) ?? 0xFFFD
            guard (0xD800..<0xDC00).contains(high) else { return (Unicode.Scalar(high) ?? "\u{FFFD}", 6) }
            let low = (try? hex4(b, at + 8)) ?? 0xDC00
            return (Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}", 12)
        default: return (Unicode.Scalar(b[at + 1]), 2)
        }
    }
}
