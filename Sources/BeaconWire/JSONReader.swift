/// The one JSON reader (RFC 8259): a pull reader over UTF-8 bytes that hands out one token per
/// `next()` and checks the whole grammar on the way, so a document that reads to the end is
/// well-formed. Strings and numbers come back as `JSONText` spans of the bytes and are decoded only
/// when asked (`string(_:)`, `number(_:)`): the locator reads a dozen members per message at fleet
/// rates and wants two or three of them. No recursion, so depth costs no stack; errors carry the
/// byte offset. Unpaired `\u` surrogates are refused, since a Swift `String` cannot hold them.
package struct JSONReader: Sendable {
    package enum Token: Equatable, Sendable {
        case beginObject, endObject, beginArray, endArray
        /// A member name; its value is the next token.
        case key(JSONText)
        case string(JSONText)
        case number(JSONText)
        case bool(Bool)
        case null
    }

    /// Deeper nesting is refused (`tooDeep`) so a hostile payload cannot grow the stack array unboundedly.
    package static let maximumDepth = 512

    /// What the grammar allows at `offset`.
    private enum Expect: Sendable {
        case value, firstMemberOrEnd, member, firstElementOrEnd, separatorOrEnd, end
    }

    package let bytes: [UInt8]
    /// Where the next token starts (after whitespace), or where an error was found.
    package private(set) var offset = 0
    /// Open containers, innermost last: true for an object.
    private var inObject: [Bool] = []
    private var expect = Expect.value

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package init(_ text: String) { self.init(Array(text.utf8)) }

    /// How many arrays and objects are open.
    package var depth: Int { inObject.count }

    /// The next token, or nil once the one top-level value and any whitespace after it are read.
    package mutating func next() throws(JSONError) -> Token? {
        skipSpace()
        switch expect {
        case .end:
            guard offset == bytes.count else { throw JSONError(.trailingData, at: offset) }
            return nil
        case .value:
            return try value()
        case .firstMemberOrEnd:
            if peek == UInt8(ascii: "}") { return close() }
            return try key()
        case .member:
            return try key()
        case .firstElementOrEnd:
            if peek == UInt8(ascii: "]") { return close() }
            return try value()
        case .separatorOrEnd:
            let object = inObject[inObject.count - 1]
            switch peek {
            case UInt8(ascii: ","):
                offset += 1
                skipSpace()
                return object ? try key() : try value()
            case UInt8(ascii: "}") where object, UInt8(ascii: "]") where !object:
                return close()
            default:
                throw unexpected()
            }
        }
    }

    /// Reads past the value whose first token is next (after a key, or in an array), nested ones whole.
    package mutating func skipValue() throws(JSONError) {
        switch try next() {
        case nil: throw JSONError(.unexpectedEnd, at: offset)
        case .beginObject?, .beginArray?: try skipContainer()
        default: break
        }
    }

    /// After `.beginObject` or `.beginArray`: reads past the matching end.
    package mutating func skipContainer() throws(JSONError) {
        let inner = depth
        // `next()` returns nil only at depth 0, so it throws before the loop could spin.
        while depth >= inner, try next() != nil {}
    }

    /// The byte at `offset`, or nil at the end.
    private var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private func unexpected() -> JSONError {
        offset < bytes.count
            ? JSONError(.unexpectedByte(bytes[offset]), at: offset) : JSONError(.unexpectedEnd, at: offset)
    }

    private mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    private mutating func key() throws(JSONError) -> Token {
        guard peek == UInt8(ascii: "\"") else { throw unexpected() }
        let name = try stringText()
        skipSpace()
        guard peek == UInt8(ascii: ":") else { throw unexpected() }
        offset += 1
        expect = .value
        return .key(name)
    }

    private mutating func value() throws(JSONError) -> Token {
        guard let byte = peek else { throw JSONError(.unexpectedEnd, at: offset) }
        let token: Token
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard inObject.count < Self.maximumDepth else { throw JSONError(.tooDeep, at: offset) }
            offset += 1
            let object = byte == UInt8(ascii: "{")
            inObject.append(object)
            expect = object ? .firstMemberOrEnd : .firstElementOrEnd
            return object ? .beginObject : .beginArray
        case UInt8(ascii: "\""): token = .string(try stringText())
        case UInt8(ascii: "t"): token = try literal("true", .bool(true))
        case UInt8(ascii: "f"): token = try literal("false", .bool(false))
        case UInt8(ascii: "n"): token = try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): token = .number(try numberText())
        default: throw unexpected()
        }
        expect = inObject.isEmpty ? .end : .separatorOrEnd
        return token
    }

    private mutating func close() -> Token {
        offset += 1
        let object = inObject.removeLast()
        expect = inObject.isEmpty ? .end : .separatorOrEnd
        return object ? .endObject : .endArray
    }

    private mutating func literal(_ word: StaticString, _ token: Token) throws(JSONError) -> Token {
        let count = word.utf8CodeUnitCount
        for i in 0..<count {
            guard offset < bytes.count else { throw JSONError(.unexpectedEnd, at: offset) }
            guard bytes[offset] == word.utf8Start[i] else { throw unexpected() }
            offset += 1
        }
        return token
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`; the error points at the first wrong byte.
    private mutating func numberText() throws(JSONError) -> JSONText {
        let start = offset
        func digit(_ at: Int) -> Bool { at < bytes.count && bytes[at] &- UInt8(ascii: "0") < 10 }
        func digits() throws(JSONError) {
            guard digit(offset) else {
                throw offset < bytes.count
                    ? JSONError(.invalidNumber, at: offset) : JSONError(.unexpectedEnd, at: offset)
            }
            repeat { offset += 1 } while digit(offset)
        }
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        if digit(offset), bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if digit(offset) { throw JSONError(.invalidNumber, at: offset) }
        } else {
            try digits()
        }
        if peek == UInt8(ascii: ".") {
            offset += 1
            try digits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            offset += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
            try digits()
        }
        return JSONText(range: start..<offset, escaped: false)
    }

    /// A string at `offset` (its opening quote), checked whole: escapes, control characters, UTF-8.
    private mutating func stringText() throws(JSONError) -> JSONText {
        let start = offset + 1
        var at = start
        var escaped = false
        let count = bytes.count
        let end: Int? = try bytes.withUnsafeBufferPointer { (b) throws(JSONError) -> Int? in
            while at < count {
                let byte = b[at]
                if byte == UInt8(ascii: "\"") { return at }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    at = try Self.escapeEnd(b, at)
                } else if byte < 0x20 {
                    throw JSONError(.controlCharacter, at: at)
                } else if byte < 0x80 {
                    at += 1
                } else {
                    guard let next = UTF8Sequence.end(in: b, at: at) else { throw JSONError(.invalidUTF8, at: at) }
                    at = next
                }
            }
            return nil
        }
        guard let end else { throw JSONError(.unexpectedEnd, at: count) }
        offset = end + 1
        return JSONText(range: start..<end, escaped: escaped)
    }

    /// Where the escape at `at` (its backslash) ends; a high surrogate must be followed by a low one.
    private static func escapeEnd(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) throws(JSONError) -> Int {
        guard at + 1 < b.count else { throw JSONError(.unexpectedEnd, at: b.count) }
        switch b[at + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return at + 2
        case UInt8(ascii: "u"):
            let unit = try hex4(b, at + 2)
            if (0xDC00..<0xE000).contains(unit) { throw JSONError(.unpairedSurrogate, at: at) }
            guard (0xD800..<0xDC00).contains(unit) else { return at + 6 }
            for (i, byte) in [(at + 6, UInt8(ascii: "\\")), (at + 7, UInt8(ascii: "u"))] {
                guard i < b.count else { throw JSONError(.unexpectedEnd, at: b.count) }
                guard b[i] == byte else { throw JSONError(.unpairedSurrogate, at: at) }
            }
            guard (0xDC00..<0xE000).contains(try hex4(b, at + 8)) else { throw JSONError(.unpairedSurrogate, at: at) }
            return at + 12
        default:
            throw JSONError(.invalidEscape, at: at)
        }
    }

    /// Four hex digits at `at`.
    static func hex4(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for i in at..<at + 4 {
            guard i < b.count else { throw JSONError(.unexpectedEnd, at: b.count) }
            let c = b[i]
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            default: throw JSONError(.invalidEscape, at: i)
            }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }
}
