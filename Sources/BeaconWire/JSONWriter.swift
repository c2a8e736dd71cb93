/// Builds compact JSON text by hand: the payloads are small and their key order is part of the
/// documented contract, so a reflective encoder would be both slower and less predictable.
public struct JSONWriter: Sendable {
    public private(set) var text: String = ""
    private var needsComma: [Bool] = [false]

    public init() { text.reserveCapacity(256) }

    public mutating func beginObject() { value(); text.append("{"); needsComma.append(false) }
    public mutating func endObject() { text.append("}"); needsComma.removeLast() }
    public mutating func beginArray() { value(); text.append("["); needsComma.append(false) }
    public mutating func endArray() { text.append("]"); needsComma.removeLast() }

    /// Writes `"name":` inside an object; the next value call writes the value.
    public mutating func key(_ name: String) {
        separate()
        Self.appendQuoted(name, to: &text)
        text.append(":")
        needsComma[needsComma.count - 1] = false
        pendingValueAfterKey = true
    }

    private var pendingValueAfterKey = false

    public mutating func string(_ s: String) { value(); Self.appendQuoted(s, to: &text) }
    public mutating func int(_ v: some BinaryInteger) { value(); text.append(String(v)) }
    public mutating func bool(_ v: Bool) { value(); text.append(v ? "true" : "false") }
    public mutating func null() { value(); text.append("null") }
    /// Non-finite numbers become null; others print with at most `decimals` fraction digits.
    public mutating func double(_ v: Double, decimals: Int = 2) {
        value()
        guard v.isFinite else { text.append("null"); return }
        text.append(Self.format(v, decimals: decimals))
    }
    /// Inserts already-valid JSON text as one value.
    public mutating func raw(_ json: String) { value(); text.append(json) }

    public mutating func field(_ name: String, _ v: String) { key(name); string(v) }
    public mutating func field(_ name: String, _ v: String?) { key(name); if let v { string(v) } else { null() } }
    public mutating func field(_ name: String, _ v: Int) { key(name); int(v) }
    public mutating func field(_ name: String, _ v: Int?) { key(name); if let v { int(v) } else { null() } }
    public mutating func field(_ name: String, _ v: Bool) { key(name); bool(v) }
    public mutating func field(_ name: String, _ v: Double, decimals: Int = 2) { key(name); double(v, decimals: decimals) }
    public mutating func field(_ name: String, _ v: Double?, decimals: Int = 2) {
        key(name)
        if let v { double(v, decimals: decimals) } else { null() }
    }

    private mutating func value() {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
            needsComma[needsComma.count - 1] = true
            return
        }
        separate()
        needsComma[needsComma.count - 1] = true
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text.append(",") }
    }

    /// Fixed-point formatting without Foundation: trailing zeros trimmed, `-0` printed as `0`.
    public static func format(_ v: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (v * scale).rounded()
        guard abs(scaled) < 9.0e15 else { return String(v) }
        let n = Int64(scaled)
        if n == 0 { return "0" }
        let negative = n < 0
        let magnitude = n.magnitude
        let whole = magnitude / UInt64(scale)
        var frac = magnitude % UInt64(scale)
        var out = negative ? "-" : ""
        out += String(whole)
        if frac != 0 {
            var digits = decimals
            while frac % 10 == 0 { frac /= 10; digits -= 1 }
            let s = String(frac)
            out += "." + String(repeating: "0", count: digits - s.count) + s
        }
        return out
    }

    /// Appends `s` as a JSON string literal (RFC 8259 §7).
    public static func appendQuoted(_ s: String, to out: inout String) {
        out.append("\"")
        // Topic names, UUIDs and timestamps never need escaping: append them whole.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out.append(s)
            out.append("\"")
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case _ where scalar.value < 0x20:
                let hex = Hex.string([UInt8(scalar.value)])
                out.append("\\u00" + hex)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }
}
