/// Appends ASCII text to a byte buffer: the building blocks of payloads and topics (decimal
/// integers, zero-padded fields, hex, fixed-point numbers). Hot paths write bytes with these
/// instead of appending to a `String` piece by piece, which costs a capacity and flags check each time.
public enum ASCIIText {
    /// `v` in decimal, with a leading `-` when negative.
    @inlinable
    public static func appendDecimal(_ v: Int64, to out: inout [UInt8]) {
        if v < 0 { out.append(0x2D) }
        appendDigits(v.magnitude, minimumWidth: 1, to: &out)
    }

    /// The decimal digits of `v`, left-padded with zeros to `minimumWidth`.
    @inlinable
    public static func appendDigits(_ v: UInt64, minimumWidth: Int, to out: inout [UInt8]) {
        // Count first, then fill from the right: no reversal, one capacity check.
        var count = 1
        var rest = v / 10
        while rest != 0 {
            count += 1
            rest /= 10
        }
        let width = max(count, minimumWidth)
        let start = out.count
        out.append(contentsOf: repeatElement(0x30, count: width))
        out.withUnsafeMutableBufferPointer { buffer in
            var rest = v
            var i = start + width - 1
            while rest != 0 {
                buffer[i] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                i -= 1
            }
        }
    }

    /// Appends `count` bytes that `fill` writes in place: one capacity and uniqueness check for a
    /// whole fixed-width field instead of one per byte.
    @inlinable
    public static func appendFixedWidth(
        _ count: Int, to out: inout [UInt8], _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void
    ) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: count))
        out.withUnsafeMutableBufferPointer { fill(UnsafeMutableBufferPointer(rebasing: $0[start..<start + count])) }
    }

    /// Two lowercase hex digits.
    @inlinable
    public static func appendHex(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(hexDigit(byte >> 4))
        out.append(hexDigit(byte & 0xF))
    }

    @inlinable
    public static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble }

    /// `v` with at most `decimals` fraction digits, trailing zeros trimmed and `-0` printed as `0`;
    /// false (nothing appended) when `v` is not finite or too large for fixed point.
    public static func appendFixed(_ v: Double, decimals: Int, to out: inout [UInt8]) -> Bool {
        guard v.isFinite else { return false }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale &*= 10 }
        let scaled = (v * Double(scale)).rounded()
        guard abs(scaled) < 9.0e15 else { return false }
        let n = Int64(scaled)
        if n < 0 { out.append(0x2D) }
        let magnitude = n.magnitude
        appendDigits(magnitude / scale, minimumWidth: 1, to: &out)
        var fraction = magnitude % scale
        guard fraction != 0 else { return true }
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        out.append(0x2E)
        appendDigits(fraction, minimumWidth: digits, to: &out)
        return true
    }

    /// The UTF-8 bytes of `s`, copied whole when the string is stored contiguously.
    @inlinable
    public static func append(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { out.append(contentsOf: $0) }
    }
}
