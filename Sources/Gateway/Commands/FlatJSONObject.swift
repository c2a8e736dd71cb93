/// The top-level members of one JSON object, with scalar values kept as text: enough JSON reading
/// for `status` to show the agents' stats payloads without Foundation's JSONSerialization (which
/// would bring Foundation, and ~10 MB of RSS, into the daemon). Nested arrays and objects are
/// checked and skipped.
struct FlatJSONObject {
    enum Value: Equatable, Sendable {
        /// A string, unescaped.
        case string(String)
        /// A number exactly as written (`12.5`, `-3`, `1e3`).
        case number(String)
        case bool(Bool)
        case null
        case nested
    }

    private(set) var members: [String: Value] = [:]

    /// Nil unless `text` is one well-formed JSON object (surrounding whitespace allowed).
    init?(_ text: String) {
        var reader = Reader(bytes: Array(text.utf8))
        guard let object = reader.object(), reader.atEnd() else { return nil }
        members = object
    }

    subscript(key: String) -> Value? { members[key] }

    /// A recursive-descent reader over UTF-8 bytes; every method returns nil on malformed input.
    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func atEnd() -> Bool {
            skipSpace()
            return at == bytes.count
        }

        mutating func object() -> [String: Value]? {
            guard consume(UInt8(ascii: "{")) else { return nil }
            var members: [String: Value] = [:]
            if consume(UInt8(ascii: "}")) { return members }
            repeat {
                skipSpace()
                guard let key = string(), consume(UInt8(ascii: ":")), let value = value() else { return nil }
                members[key] = value
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}")) ? members : nil
        }

        mutating func value() -> Value? {
            skipSpace()
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "{"): return object() == nil ? nil : .nested
            case UInt8(ascii: "["): return array() ? .nested : nil
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number().map(Value.number)
            }
        }

        mutating func array() -> Bool {
            guard consume(UInt8(ascii: "[")) else { return false }
            if consume(UInt8(ascii: "]")) { return true }
            repeat {
                guard value() != nil else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]"))
        }

        /// `-?digits(.digits)?([eE][+-]?digits)?`, as written.
        mutating func number() -> String? {
            let start = at
            func digits(_ r: inout Reader) -> Bool {
                let first = r.at
                while r.at < r.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(r.bytes[r.at]) { r.at += 1 }
                return r.at > first
            }
            _ = consumeExact(UInt8(ascii: "-"))
            guard digits(&self) else { return nil }
            if consumeExact(UInt8(ascii: ".")), !digits(&self) { return nil }
            if consumeExact(UInt8(ascii: "e")) || consumeExact(UInt8(ascii: "E")) {
                _ = consumeExact(UInt8(ascii: "+")) || consumeExact(UInt8(ascii: "-"))
                guard digits(&self) else { return nil }
            }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }

        mutating func string() -> String? {
            guard consumeExact(UInt8(ascii: "\"")) else { return nil }
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard let scalar = escape() else { return nil }
                    scalars.append(scalar)
                case 0..<0x20:
                    return nil
                default:
                    raw.append(byte)
                }
            }
            return nil
        }

        /// After a backslash: one escape, `\uD83D\uDE00` surrogate pairs joined.
        mutating func escape() -> Unicode.Scalar? {
            guard at < bytes.count else { return nil }
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                guard let high = hex4() else { return nil }
                guard (0xD800..<0xDC00).contains(high) else { return Unicode.Scalar(high) }
                guard consumeExact(UInt8(ascii: "\\")), consumeExact(UInt8(ascii: "u")), let low = hex4(),
                    (0xDC00..<0xE000).contains(low)
                else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            default: return nil
            }
        }

        mutating func hex4() -> UInt32? {
            guard at + 4 <= bytes.count,
                let value = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
            else { return nil }
            at += 4
            return value
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard at + count <= bytes.count,
                bytes[at..<at + count].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
            else { return false }
            at += count
            return true
        }

        /// Skips whitespace, then takes `byte` if it is next.
        mutating func consume(_ byte: UInt8) -> Bool {
            skipSpace()
            return consumeExact(byte)
        }

        mutating func consumeExact(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }
    }
}
