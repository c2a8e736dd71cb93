/// Builds compact JSON text by hand: the payloads are small and their key order is part of the
/// documented contract, so a reflective encoder would be both slower and less predictable.
///
/// The text accumulates as UTF-8 bytes (see `ASCIIText`) and becomes a `String` once, in `text`.
import Vocabulary

public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Bit d set: the container at nesting depth d already holds a value, so the next one needs a
    /// comma. Payloads nest a few levels; deeper levels share bit 63 (only commas could go wrong).
    private var commaBits: UInt64 = 0
    private var depth = 0
    private var pendingValueAfterKey = false

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    private var bit: UInt64 { 1 << UInt64(min(depth, 63)) }

    public mutating func beginObject() { open(0x7B) }
    public mutating func endObject() { close(0x7D) }
    public mutating func beginArray() { open(0x5B) }
    public mutating func endArray() { close(0x5D) }

    private mutating func open(_ bracket: UInt8) {
        value()
        bytes.append(bracket)
        depth += 1
        commaBits &= ~bit
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        depth = max(0, depth - 1)
    }

    /// Writes `"name":` inside an object; the next value call writes the value. Names are the
    /// payload contract's keys, chosen in code: plain ASCII, so they are copied without escaping.
    public mutating func key(_ name: String) {
        var name = name
        let comma = commaBits & bit != 0
        name.withUTF8 { utf8 in
            compose(maximum: utf8.count &+ 4) { p in
                var at = 0
                if comma {
                    p[0] = 0x2C
                    at = 1
                }
                p[at] = 0x22
                if let source = utf8.baseAddress { (p + (at &+ 1)).update(from: source, count: utf8.count) }
                at &+= 1 &+ utf8.count
                p[at] = 0x22
                p[at &+ 1] = 0x3A
                return at &+ 2
            }
        }
        commaBits &= ~bit
        pendingValueAfterKey = true
    }

    /// Appends up to `maximum` bytes that `fill` writes on the stack (returning how many): one
    /// capacity and uniqueness check for a key or a number instead of one per byte, which made
    /// the ranging list's members cost about 500 instructions each.
    @inline(__always)
    private mutating func compose(maximum: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximum) { buffer in
            let n = fill(buffer.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Writes `"name":` for a name that may need escaping: one a user chose, not the contract's.
    public mutating func key(quoting name: String) {
        separate()
        Self.appendQuoted(name, to: &bytes)
        bytes.append(0x3A)
        commaBits &= ~bit
        pendingValueAfterKey = true
    }

    public mutating func string(_ s: String) {
        value()
        Self.appendQuoted(s, to: &bytes)
    }
    /// A string value whose text `write` appends and which needs no escaping (digits, hex, RFC 3339
    /// times), so it is neither scanned nor built as a `String` first.
    public mutating func plain(_ write: (inout [UInt8]) -> Void) {
        value()
        bytes.append(0x22)
        write(&bytes)
        bytes.append(0x22)
    }
    public mutating func int(_ v: some BinaryInteger) {
        value()
        if let small = Int64(exactly: v) {
            compose(maximum: 21) { p in
                if small < 0 { p[0] = 0x2D }
                let sign = small < 0 ? 1 : 0
                return sign &+ ASCIIText.writeDigits(small.magnitude, minimumWidth: 1, at: p + sign)
            }
        } else {
            ASCIIText.append(String(v), to: &bytes)
        }
    }
    public mutating func bool(_ v: Bool) {
        value()
        appendLiteral(v ? "true" : "false")
    }
    public mutating func null() {
        value()
        appendLiteral("null")
    }
    /// Non-finite numbers become null; others print with at most `decimals` fraction digits.
    public mutating func double(_ v: Double, decimals: Int = 2) {
        value()
        var written = false
        compose(maximum: ASCIIText.fixedCapacity(decimals: decimals)) { p in
            let n = ASCIIText.writeFixed(v, decimals: decimals, at: p)
            written = n != nil
            return n ?? 0
        }
        if !written {
            if v.isFinite { ASCIIText.append(String(v), to: &bytes) } else { appendLiteral("null") }
        }
    }
    /// Inserts already-valid object members (`"a":1,"b":2`, as written by another writer inside an
    /// object) into the current object.
    public mutating func members(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        commaBits |= bit
    }

    /// Inserts the members `write` puts in a run of at most `maximum` bytes on the stack, in one
    /// append (see `JSONMemberRun`).
    public mutating func members(maximum: Int, _ write: (inout JSONMemberRun) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximum) { buffer in
            var run = JSONMemberRun(buffer)
            write(&run)
            guard run.count > 0 else { return }
            separate()
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<run.count]))
            commaBits |= bit
        }
    }

    /// Writes an object whose members `write` puts in a run of at most `maximum` bytes on the
    /// stack, braces included, in one append: a ranging list's entries (an entry written as five
    /// calls, each with its capacity and uniqueness check, cost about 500 instructions more).
    public mutating func object(maximum: Int, _ write: (inout JSONMemberRun) -> Void) {
        value()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximum &+ 2) { buffer in
            buffer[0] = 0x7B
            var run = JSONMemberRun(UnsafeMutableBufferPointer(rebasing: buffer[1..<(maximum &+ 1)]))
            write(&run)
            let n = run.count
            buffer[n &+ 1] = 0x7D
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<(n &+ 2)]))
        }
    }

    /// The text written so far after the opening bracket of the outermost container: an object's
    /// members, ready for `members(_:)`.
    public var innerBytes: ArraySlice<UInt8> { bytes.dropFirst() }

    /// Inserts already-valid JSON text as one value.
    public mutating func raw(_ json: String) {
        value()
        ASCIIText.append(json, to: &bytes)
    }

    public mutating func field(_ name: String, _ v: String) {
        key(name)
        string(v)
    }
    public mutating func field(_ name: String, _ v: String?) {
        key(name)
        if let v { string(v) } else { null() }
    }
    public mutating func field(_ name: String, plain write: (inout [UInt8]) -> Void) {
        key(name)
        plain(write)
    }
    public mutating func field(_ name: String, _ v: Int) {
        key(name)
        int(v)
    }
    public mutating func field(_ name: String, _ v: Int?) {
        key(name)
        if let v { int(v) } else { null() }
    }
    public mutating func field(_ name: String, _ v: Bool) {
        key(name)
        bool(v)
    }
    public mutating func field(_ name: String, _ v: Double, decimals: Int = 2) {
        key(name)
        double(v, decimals: decimals)
    }
    public mutating func field(_ name: String, _ v: Double?, decimals: Int = 2) {
        key(name)
        if let v { double(v, decimals: decimals) } else { null() }
    }

    private mutating func appendLiteral(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func value() {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
            commaBits |= bit
            return
        }
        separate()
        commaBits |= bit
    }

    private mutating func separate() {
        if commaBits & bit != 0 { bytes.append(0x2C) }
    }

    /// Fixed-point formatting without Foundation: trailing zeros trimmed, `-0` printed as `0`.
    public static func format(_ v: Double, decimals: Int) -> String {
        var out: [UInt8] = []
        guard ASCIIText.appendFixed(v, decimals: decimals, to: &out) else { return String(v) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `s` as a JSON string literal (RFC 8259 §7) to UTF-8 bytes.
    public static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        var s = s
        // Keys, topics, UUIDs and names almost never need escaping: copy them whole.
        let copied = s.withUTF8 { utf8 -> Bool in
            for b in utf8 where b < 0x20 || b == 0x22 || b == 0x5C { return false }
            out.append(contentsOf: utf8)
            return true
        }
        if !copied {
            for b in s.utf8 {
                switch b {
                case 0x22: out += [0x5C, 0x22]
                case 0x5C: out += [0x5C, 0x5C]
                case 0x0A: out += [0x5C, 0x6E]
                case 0x0D: out += [0x5C, 0x72]
                case 0x09: out += [0x5C, 0x74]
                case _ where b < 0x20:
                    out += [0x5C, 0x75, 0x30, 0x30]
                    ASCIIText.appendHex(b, to: &out)
                default: out.append(b)
                }
            }
        }
        out.append(0x22)
    }
}
