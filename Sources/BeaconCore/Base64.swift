/// Base64 with padding (RFC 4648 §4), for Home Assistant's form of an identity resolving key.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The padded encoding of `bytes`.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let b = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((b.count + 2) / 3 * 4)
        var i = 0
        while i < b.count {
            let n = min(3, b.count - i)
            let v = UInt32(b[i]) << 16 | (n > 1 ? UInt32(b[i + 1]) << 8 : 0) | (n > 2 ? UInt32(b[i + 2]) : 0)
            for k in 0..<4 {
                out.append(k <= n ? alphabet[Int(v >> UInt32(18 - 6 * k) & 0x3F)] : 0x3D)
            }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes padded base64; nil when a character, the padding or the length is wrong.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        for start in stride(from: 0, to: chars.count, by: 4) {
            var v: UInt32 = 0
            var padding = 0
            for k in 0..<4 {
                let c = chars[start + k]
                let digit: UInt32
                switch c {
                case 0x41...0x5A: digit = UInt32(c - 0x41)
                case 0x61...0x7A: digit = UInt32(c - 0x61 + 26)
                case 0x30...0x39: digit = UInt32(c - 0x30 + 52)
                case 0x2B: digit = 62
                case 0x2F: digit = 63
                case 0x3D where start + 4 == chars.count && k >= 2:
                    digit = 0
                    padding += 1
                default: return nil
                }
                // Padding only at the end of the last group.
                if padding > 0 && c != 0x3D { return nil }
                v = v << 6 | digit
            }
            let count = 3 - padding
            for k in 0..<count { out.append(UInt8(truncatingIfNeeded: v >> UInt32(16 - 8 * k))) }
        }
        return out
    }
}
