/// Object members written on the stack and appended to a `JSONWriter` in one go
/// (`JSONWriter.members(maximum:_:)`): for the fields a payload writes many times over, such as a
/// ranging list's measurements. Each `JSONWriter` call pays a capacity and uniqueness check and a
/// generic append; written here, five members cost about a seventh of that.
///
/// Keys are the contract's ASCII names (`StaticString`), values numbers, `null` or text that needs
/// no escaping. Formats are `JSONWriter`'s, byte for byte.
public struct JSONMemberRun: ~Copyable {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    public private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    private mutating func put(_ byte: UInt8) {
        precondition(count < capacity, "JSONMemberRun: more than its maximum")
        base[count] = byte
        count &+= 1
    }

    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(count &+ bytes.count <= capacity, "JSONMemberRun: more than its maximum")
        if let source = bytes.baseAddress { (base + count).update(from: source, count: bytes.count) }
        count &+= bytes.count
    }

    /// `"name":`, after a comma unless it is the run's first member.
    public mutating func key(_ name: StaticString) {
        if count > 0 { put(0x2C) }
        put(0x22)
        name.withUTF8Buffer { put($0) }
        put(0x22)
        put(0x3A)
    }

    public mutating func null() {
        for byte: UInt8 in [0x6E, 0x75, 0x6C, 0x6C] { put(byte) }
    }

    /// As `JSONWriter.double`: at most `decimals` fraction digits, null when not finite.
    public mutating func double(_ v: Double?, decimals: Int) {
        guard let v else { return null() }
        precondition(count &+ ASCIIText.fixedCapacity(decimals: decimals) <= capacity, "JSONMemberRun: more than its maximum")
        if let n = ASCIIText.writeFixed(v, decimals: decimals, at: base + count) {
            count &+= n
        } else if v.isFinite {
            var text = String(v)
            text.withUTF8 { put($0) }
        } else {
            null()
        }
    }

    public mutating func int(_ v: Int) {
        precondition(count &+ 21 <= capacity, "JSONMemberRun: more than its maximum")
        if v < 0 { put(0x2D) }
        count &+= ASCIIText.writeDigits(UInt64(v.magnitude), minimumWidth: 1, at: base + count)
    }

    /// A string value that needs no escaping (the contract's enumerations).
    public mutating func plain(_ s: String) {
        var s = s
        put(0x22)
        s.withUTF8 { put($0) }
        put(0x22)
    }

}
