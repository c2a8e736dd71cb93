import BeaconWire
import Testing

/// RFC 8259 conformance of the one JSON reader: tokens, strings, numbers, and where errors point.
@Suite struct JSONReaderTests {
    typealias Token = JSONReader.Token

    /// Every token of `text`, decoded: strings and keys by value, numbers as written.
    static func tokens(_ text: String) throws(JSONError) -> [String] {
        var reader = JSONReader(text)
        var out: [String] = []
        while let token = try reader.next() {
            switch token {
            case .beginObject: out.append("{")
            case .endObject: out.append("}")
            case .beginArray: out.append("[")
            case .endArray: out.append("]")
            case .key(let t): out.append("key:" + reader.string(t))
            case .string(let t): out.append("s:" + reader.string(t))
            case .number(let t): out.append("n:" + reader.raw(t))
            case .bool(let b): out.append(b ? "true" : "false")
            case .null: out.append("null")
            }
        }
        return out
    }

    static func error(_ text: String) -> JSONError? { error(Array(text.utf8)) }

    static func error(_ bytes: [UInt8]) -> JSONError? {
        var reader = JSONReader(bytes)
        do {
            while try reader.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    @Test func nestedDocumentReadsAsTokens() throws {
        let text = #" { "a" : [1, -2.5e3, {"b": null}, [] , {}], "c": true, "d": false, "e": "x" } "#
        #expect(
            try Self.tokens(text) == [
                "{", "key:a", "[", "n:1", "n:-2.5e3", "{", "key:b", "null", "}", "[", "]", "{", "}", "]",
                "key:c", "true", "key:d", "false", "key:e", "s:x", "}",
            ])
    }

    @Test func anyValueMayBeTheDocument() throws {
        #expect(try Self.tokens("1") == ["n:1"])
        #expect(try Self.tokens(" \"a\"\n") == ["s:a"])
        #expect(try Self.tokens("\ttrue\r\n") == ["true"])
        #expect(try Self.tokens("null") == ["null"])
        #expect(try Self.tokens("[]") == ["[", "]"])
    }

    @Test func stringsDecodeEveryEscape() throws {
        #expect(try Self.tokens(#""\"\\\/\b\f\n\r\t""#) == ["s:\"\\/\u{08}\u{0C}\n\r\t"])
        #expect(try Self.tokens(#""caf\u00e9 \u00E9 \u20ac \ud83d\ude00""#) == ["s:café é € 😀"])
        #expect(try Self.tokens("\"raw é € 😀\"") == ["s:raw é € 😀"])
        #expect(try Self.tokens(#""\u0000""#) == ["s:\u{0}"])
        #expect(try Self.tokens(#""""#) == ["s:"])
    }

    @Test func writerOutputReadsBack() throws {
        let samples = ["plain", "quote \" back \\ slash /", "controls \u{0}\u{1}\u{1F}\n\t", "é€😀", "\u{7F}", ""]
        for sample in samples {
            var w = JSONWriter()
            w.beginObject()
            w.field("v", sample)  // the writer copies keys unescaped (they are code's ASCII)
            w.endObject()
            let object = try JSONObject(w.text)
            #expect(object.string("v") == sample, "\(sample)")
        }
    }

    @Test func numbersFollowTheGrammar() throws {
        for valid in ["0", "-0", "7", "123", "-45", "1.5", "-0.25", "1e3", "1E+2", "2.5e-3", "-1.0E-10", "0e0"] {
            #expect(try Self.tokens(valid) == ["n:" + valid])
            var reader = JSONReader("[\(valid)]")
            _ = try reader.next()
            guard case .number(let text)? = try reader.next() else {
                Issue.record("\(valid)")
                continue
            }
            #expect(reader.number(text) == Double(valid))
        }
        for (invalid, offset) in [
            ("01", 1), ("-01", 2), ("-", 1), ("1.", 2), ("1.e3", 2), ("1e", 2), ("1e+", 3), ("-a", 1), ("2.x", 2),
        ] {
            let error = Self.error(invalid)
            #expect(error?.offset == offset, "\(invalid)")
            #expect(error?.reason == .invalidNumber || error?.reason == .unexpectedEnd, "\(invalid)")
        }
        for notNumbers in [".5", "+1", "NaN", "Infinity", "0x10"] {
            #expect(Self.error(notNumbers) != nil, "\(notNumbers)")
        }
    }

    /// The short-decimal fast path must round exactly as `Double(String)` does.
    @Test func numbersConvertLikeTheStandardLibrary() throws {
        var rng = RobustnessTests.SplitMix64(state: 5)
        var samples = [
            "0.1", "0.3", "-59", "1.01", "10.47", "999999999999999", "0.000000000000001", "123456789.123456",
        ]
        for _ in 0..<20_000 {
            let digits = (0..<Int.random(in: 1...17, using: &rng)).map { _ in String(Int.random(in: 0...9, using: &rng))
            }
            var text = digits.joined()
            while text.count > 1, text.hasPrefix("0") { text.removeFirst() }
            let point = Int.random(in: 0...text.count, using: &rng)
            if point > 0, point < text.count { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            samples.append(Bool.random(using: &rng) ? "-" + text : text)
        }
        for sample in samples {
            var reader = JSONReader(sample)
            guard case .number(let text)? = try reader.next() else {
                Issue.record("\(sample)")
                continue
            }
            #expect(reader.number(text)?.bitPattern == Double(sample)?.bitPattern, "\(sample)")
        }
    }

    @Test func errorsNameTheReasonAndTheOffset() {
        let cases: [(String, JSONError.Reason, Int)] = [
            ("", .unexpectedEnd, 0),
            ("   ", .unexpectedEnd, 3),
            ("{", .unexpectedEnd, 1),
            (#"{"a":}"#, .unexpectedByte(UInt8(ascii: "}")), 5),
            (#"{"a":1,}"#, .unexpectedByte(UInt8(ascii: "}")), 7),
            (#"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1")), 5),
            ("{1:2}", .unexpectedByte(UInt8(ascii: "1")), 1),
            ("[1,]", .unexpectedByte(UInt8(ascii: "]")), 3),
            ("[1 2]", .unexpectedByte(UInt8(ascii: "2")), 3),
            ("[1}", .unexpectedByte(UInt8(ascii: "}")), 2),
            (#"{"a":1]"#, .unexpectedByte(UInt8(ascii: "]")), 6),
            ("1 2", .trailingData, 2),
            ("{} x", .trailingData, 3),
            ("truex", .trailingData, 4),
            ("tru", .unexpectedEnd, 3),
            ("nul1", .unexpectedByte(UInt8(ascii: "1")), 3),
            ("\"abc", .unexpectedEnd, 4),
            (#""\q""#, .invalidEscape, 1),
            (#""\u12g4""#, .invalidEscape, 5),
            (#""\u12"#, .unexpectedEnd, 5),
            ("\"a\u{1}\"", .controlCharacter, 2),
            ("\"\n\"", .controlCharacter, 1),
            (#""\ud800""#, .unpairedSurrogate, 1),
            (#""\udc00""#, .unpairedSurrogate, 1),
            (#""x\ud800\u0041""#, .unpairedSurrogate, 2),
            ("\u{FEFF}1", .unexpectedByte(0xEF), 0),
        ]
        for (text, reason, offset) in cases {
            #expect(Self.error(text) == JSONError(reason, at: offset), "\(text.debugDescription)")
        }
        #expect(JSONError(.unexpectedByte(UInt8(ascii: "}")), at: 5).description == "JSON offset 5: unexpected '}'")
        #expect(JSONError(.unexpectedByte(0x01), at: 0).description == "JSON offset 0: unexpected byte 0x01")
    }

    @Test func malformedUTF8IsRefused() {
        let quote = UInt8(ascii: "\"")
        for bad: [UInt8] in [
            [0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xE2, 0x82], [0xC3],
        ] {
            #expect(Self.error([quote, UInt8(ascii: "a")] + bad + [quote]) == JSONError(.invalidUTF8, at: 2), "\(bad)")
        }
        #expect(Self.error([quote, 0xF0, 0x9F, 0x98, 0x80, quote]) == nil)
        #expect(Self.error([quote, 0xEF, 0xBF, 0xBF, quote]) == nil)
    }

    @Test func depthIsBounded() {
        let deepest =
            String(repeating: "[", count: JSONReader.maximumDepth)
            + String(repeating: "]", count: JSONReader.maximumDepth)
        #expect(Self.error(deepest) == nil)
        #expect(Self.error("[" + deepest + "]") == JSONError(.tooDeep, at: JSONReader.maximumDepth))
    }

    @Test func skipValueSkipsNestedValuesWhole() throws {
        var reader = JSONReader(#"{"a":[1,{"b":[2,"]"]}],"c":{"d":{}},"e":3}"#)
        #expect(try reader.next() == .beginObject)
        var names: [String] = []
        while case .key(let name)? = try reader.next() {
            names.append(reader.string(name))
            if names.last == "e" {
                guard case .number(let n)? = try reader.next() else {
                    Issue.record("e")
                    return
                }
                #expect(reader.number(n) == 3)
            } else {
                try reader.skipValue()
                #expect(reader.depth == 1)
            }
        }
        #expect(names == ["a", "c", "e"])
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test func matchesComparesDecodedValues() throws {
        var reader = JSONReader(#"["ab","a\u0062","ab\n"]"#)
        _ = try reader.next()
        var texts: [JSONText] = []
        while case .string(let t)? = try reader.next() { texts.append(t) }
        #expect(texts.map { reader.matches($0, "ab") } == [true, true, false])
        #expect(reader.matches(texts[2], "ab\n"))
        #expect(!reader.matches(texts[0], "a"))
        #expect(!reader.matches(texts[0], "abc"))
    }
}
