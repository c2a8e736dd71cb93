/// Object members written on the stack and appended to a `JSONWriter` in one go
/// (`JSONWriter.members(maximum:_:)`, `JSONWriter.object(maximum:_:)`): for the fields a payload
/// writes many times over, such as a ranging list's entries. Each `JSONWriter` call pays a
/// capacity and uniqueness check and a generic append; written here, five members cost about a
/// seventh of that.
///
/// Keys are the contract's ASCII names (`StaticString`), values numbers, `null`, times or text
/// that needs no escaping. Formats are `JSONWriter`'s, byte for byte.
import Vocabulary

public struct JSONMemberRun: ~Copyable {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    /// Bytes written; every write checks first that it stays within `capacity`.
    @usableFromInline var used = 0

    public var count: Int { used }

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    private mutating func put(_ byte: UInt8) {
        precondition(used < capacity, "JSONMemberRun: more than its maximum")
        base[used] = byte
        used &+= 1
    }

    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(used &+ bytes.count <= capacity, "JSONMemberRun: more than its maximum")
        if let source = bytes.baseAddress { (base + used).update(from: source, count: bytes.count) }
        used &+= bytes.count
    }

    /// `"name":`, after a comma unless it is the run's first member. One bounds check for the
    /// whole key, and inlined, so a literal key's copy is a few moves (a check and a call per
    /// byte, then a `memcpy` call, made a key cost about 70 instructions).
    @inlinable @inline(__always)
    public mutating func key(_ name: StaticString) {
        let n = name.utf8CodeUnitCount
        precondition(used &+ n &+ 4 <= capacity, "JSONMemberRun: more than its maximum")
        var at = used
        if at > 0 {
            base[at] = 0x2C
            at &+= 1
        }
        base[at] = 0x22
        name.withUTF8Buffer { (base + (at &+ 1)).update(from: $0.baseAddress!, count: n) }
        at &+= n &+ 1
        base[at] = 0x22
        base[at &+ 1] = 0x3A
        used = at &+ 2
    }

    /// Already-valid members (another writer's `innerBytes`), after a comma unless they are the
    /// run's first.
    public mutating func members(_ json: [UInt8]) {
        guard !json.isEmpty else { return }
        if used > 0 { put(0x2C) }
        json.withUnsafeBufferPointer { put($0) }
    }

    public mutating func null() {
        for byte: UInt8 in [0x6E, 0x75, 0x6C, 0x6C] { put(byte) }
    }

    /// As `JSONWriter.double`: at most `decimals` fraction digits, null when not finite.
    public mutating func double(_ v: Double?, decimals: Int) {
        guard let v else { return null() }
        precondition(
            used &+ ASCIIText.fixedCapacity(decimals: decimals) <= capacity, "JSONMemberRun: more than its maximum")
        if let n = ASCIIText.writeFixed(v, decimals: decimals, at: base + used) {
            used &+= n
        } else if v.isFinite {
            var text = String(v)
            text.withUTF8 { put($0) }
        } else {
            null()
        }
    }

    public mutating func int(_ v: Int) {
        precondition(used &+ 21 <= capacity, "JSONMemberRun: more than its maximum")
        if v < 0 { put(0x2D) }
        used &+= ASCIIText.writeDigits(UInt64(v.magnitude), minimumWidth: 1, at: base + used)
    }

    /// A string value that needs no escaping (the contract's enumerations).
    public mutating func plain(_ s: String) {
        var s = s
        put(0x22)
        s.withUTF8 { put($0) }
        put(0x22)
    }

    /// A quoted RFC 3339 time, as `Timestamp.rfc3339` (through `formatter`'s cached minute).
    public mutating func time(_ t: Timestamp, _ formatter: inout RFC3339Formatter) {
        precondition(used &+ RFC3339Formatter.maximumLength &+ 2 <= capacity, "JSONMemberRun: more than its maximum")
        base[used] = 0x22
        let n = formatter.write(t, at: base + (used &+ 1))
        base[used &+ 1 &+ n] = 0x22
        used &+= n &+ 2
    }
}
