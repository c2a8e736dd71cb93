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
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(20, minimumWidth)) { buffer in
            let n = writeDigits(v, minimumWidth: minimumWidth, at: buffer.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Writes the decimal digits of `v`, left-padded with zeros to `minimumWidth`, at `p` (room for
    /// max(20, minimumWidth) bytes); returns how many it wrote.
    @inlinable
    public static func writeDigits(_ v: UInt64, minimumWidth: Int, at p: UnsafeMutablePointer<UInt8>) -> Int {
        // One or two digits (most RSSI, accuracy and time fields) without the loops.
        if v < 100 && minimumWidth <= 2 {
            if v < 10 && minimumWidth <= 1 {
                p[0] = 0x30 &+ UInt8(truncatingIfNeeded: v)
                return 1
            }
            p[0] = 0x30 &+ UInt8(truncatingIfNeeded: v / 10)
            p[1] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
            return 2
        }
        var count = 1
        var rest = v / 10
        while rest != 0 {
            count &+= 1
            rest /= 10
        }
        let width = max(count, minimumWidth)
        // From the right; once the digits run out, the remainders are the padding zeros.
        rest = v
        var i = width &- 1
        while i >= 0 {
            p[i] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            i &-= 1
        }
        return width
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
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: fixedCapacity(decimals: decimals)) { buffer in
            guard let n = writeFixed(v, decimals: decimals, at: buffer.baseAddress!) else { return false }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<n]))
            return true
        }
    }

    /// The room `writeFixed` needs: a sign, 16 integer digits, the point and the fraction.
    public static func fixedCapacity(decimals: Int) -> Int { 38 + max(decimals, 0) }

    /// `appendFixed`'s text written at `p` (room for `fixedCapacity(decimals:)` bytes); returns how
    /// many bytes it wrote, nil (nothing written) when `v` is not finite or too large.
    public static func writeFixed(_ v: Double, decimals: Int, at p: UnsafeMutablePointer<UInt8>) -> Int? {
        guard v.isFinite else { return nil }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale &*= 10 }
        // Rounded half away from zero, as `rounded()` does, without its call into libm: below
        // 9e15 the truncation is exact and so is the fraction it leaves (whole numbers are exact).
        let scaled = v * Double(scale)
        guard abs(scaled) < 9.0e15 else { return nil }
        let whole = Int64(scaled)
        let left = scaled - Double(whole)
        let n = left >= 0.5 ? whole &+ 1 : left <= -0.5 ? whole &- 1 : whole
        guard n.magnitude < 9_000_000_000_000_000 else { return nil }
        var at = 0
        if n < 0 {
            p[0] = 0x2D
            at = 1
        }
        let magnitude = n.magnitude
        at &+= writeDigits(magnitude / scale, minimumWidth: 1, at: p + at)
        var fraction = magnitude % scale
        guard fraction != 0 else { return at }
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        p[at] = 0x2E
        return at &+ 1 &+ writeDigits(fraction, minimumWidth: digits, at: p + (at &+ 1))
    }

    /// The UTF-8 bytes of `s`, copied whole when the string is stored contiguously.
    @inlinable
    public static func append(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { out.append(contentsOf: $0) }
    }
}
