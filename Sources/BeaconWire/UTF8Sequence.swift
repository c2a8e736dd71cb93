/// Well-formed UTF-8 (RFC 3629 table 3-7): no overlong forms, no surrogates, nothing past U+10FFFF.
enum UTF8Sequence {
    /// Where the multi-byte sequence starting at `at` ends, or nil when it is not well-formed.
    static func end(in b: UnsafeBufferPointer<UInt8>, at: Int) -> Int? {
        let lead = b[at]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return nil
        }
        guard at + length <= b.count, (low...high).contains(b[at + 1]) else { return nil }
        for i in at + 2..<at + length where !(0x80...0xBF).contains(b[i]) { return nil }
        return at + length
    }
}
