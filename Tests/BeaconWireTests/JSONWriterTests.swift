import BeaconWire
import Testing
import Vocabulary

@Suite struct JSONWriterTests {
    @Test func writesNestedObjectsAndArraysWithCommas() {
        var w = JSONWriter()
        w.beginObject()
        w.field("a", 1)
        w.key("list")
        w.beginArray()
        w.int(1)
        w.string("x\"y")
        w.beginObject()
        w.field("n", nil as String?)
        w.endObject()
        w.endArray()
        w.field("b", true)
        w.endObject()
        #expect(w.text == #"{"a":1,"list":[1,"x\"y",{"n":null}],"b":true}"#)
    }

    @Test func aQuotedKeyIsEscapedAndTakesItsCommaAndValue() {
        var w = JSONWriter()
        w.beginObject()
        w.field("a", 1)
        w.key(quoting: #"locate {room: "hall"}"#)
        w.string("x")
        w.key(quoting: "b")
        w.null()
        w.endObject()
        #expect(w.text == #"{"a":1,"locate {room: \"hall\"}":"x","b":null}"#)
    }

    @Test func formatsDoublesWithoutTrailingZeros() {
        #expect(JSONWriter.format(1.5, decimals: 2) == "1.5")
        #expect(JSONWriter.format(-0.004, decimals: 2) == "0")
        #expect(JSONWriter.format(2.0, decimals: 2) == "2")
        #expect(JSONWriter.format(-67.26, decimals: 1) == "-67.3")
        #expect(JSONWriter.format(0.05, decimals: 2) == "0.05")
    }

    @Test func escapesControlCharacters() {
        var out: [UInt8] = []
        JSONWriter.appendQuoted("a\u{01}\n", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #""a\u0001\n""#)
    }
}

@Suite struct JSONWriterMembersTests {
    @Test func membersSpliceIntoAnotherObjectWithCommas() {
        var inner = JSONWriter()
        inner.beginObject()
        inner.field("a", 1)
        inner.field("b", plain: { $0 += Array("x".utf8) })
        let members = Array(inner.innerBytes)
        var w = JSONWriter()
        w.beginArray()
        w.beginObject()
        w.members(members)
        w.field("c", nil as Int?)
        w.endObject()
        w.beginObject()
        w.field("z", false)
        w.members(members)
        w.endObject()
        w.endArray()
        #expect(w.text == #"[{"a":1,"b":"x","c":null},{"z":false,"a":1,"b":"x"}]"#)
    }
}

@Suite struct JSONObjectRunTests {
    /// An object written as one run (`object(maximum:_:)`, as a ranging entry is) is byte for byte
    /// the object the writer's own calls make: keys, commas, numbers, null, plain text, spliced
    /// members and times, for many values and between array elements.
    @Test func objectRunMatchesTheWritersCalls() {
        let prefix: [UInt8] = {
            var inner = JSONWriter()
            inner.beginObject()
            inner.field("uuid", "e2c56db5")
            inner.field("major", 7)
            return Array(inner.innerBytes)
        }()
        var runs = JSONWriter()
        var calls = JSONWriter()
        var runTimes = RFC3339Formatter()
        var x: UInt64 = 0x2545_F491_4F6C_DD1D
        runs.beginArray()
        calls.beginArray()
        for i in 0..<3_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let d = Double(Int64(bitPattern: x >> 11) % 2_000_000) / 997.0 - 1_000
            let rssi: Double? = i % 7 == 0 ? nil : Double(Int8(truncatingIfNeeded: x >> 3))
            let n = Int(Int16(truncatingIfNeeded: x >> 20))
            let t = Timestamp(microseconds: 1_700_000_000_000_000 + Int64(i) * 9_973_123 + Int64(x % 1_000_000))
            let withPrefix = i % 3 != 0
            runs.object(maximum: prefix.count + 320) { m in
                if withPrefix { m.members(prefix) }
                m.key("rssi")
                m.double(rssi, decimals: 1)
                m.key("accuracy")
                m.double(d, decimals: 2)
                m.key("measured_power")
                m.int(n)
                m.key("proximity")
                m.plain("near")
                m.key("last_seen")
                m.time(t, &runTimes)
            }
            calls.beginObject()
            if withPrefix { calls.members(prefix) }
            calls.field("rssi", rssi, decimals: 1)
            calls.field("accuracy", d, decimals: 2)
            calls.field("measured_power", n)
            calls.field("proximity", "near")
            calls.field("last_seen", plain: t.appendRFC3339)
            calls.endObject()
        }
        runs.endArray()
        calls.endArray()
        #expect(runs.text == calls.text)
        #expect(runs.text.hasPrefix(#"[{"rssi":null,"accuracy":"#))
        #expect(runs.text.contains(#"},{"uuid":"e2c56db5","major":7,"rssi":"#))
    }
}
