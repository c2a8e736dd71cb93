import BeaconWire
import Testing

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
