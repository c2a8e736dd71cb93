import BeaconWire
import Testing

/// Top-level members of a JSON object, as the daemon reads stats, proximity, events and locations.
@Suite struct JSONObjectTests {
    @Test func statsPayloadMembersKeepNumbersAsWritten() throws {
        let object = try JSONObject(
            #" {"uptime":42,"reports_per_s":12.5,"degraded":null,"note":"a\"b\u00e9\ud83d\ude00","ok":true,"#
                + #""list":[1,{"x":[]}],"nested":{"y":-1e3}} "#)
        #expect(object["uptime"] == .number("42"))
        #expect(object["reports_per_s"] == .number("12.5"))
        #expect(object["degraded"] == .null)
        #expect(object["note"] == .string("a\"bé😀"))
        #expect(object["ok"] == .bool(true))
        #expect(object["list"] == .nested)
        #expect(object["nested"] == .nested)
        #expect(object["missing"] == nil)
        #expect(object.names == ["uptime", "reports_per_s", "degraded", "note", "ok", "list", "nested"])
    }

    @Test func malformedJSONIsRejected() {
        for text in [
            "", "[]", "1", "{", #"{"a":}"#, #"{"a":1,}"#, #"{"a":01x}"#, #"{"a":"\q"}"#, #"{"a":1} x"#,
            "{\"a\":\"\n\"}",
        ] {
            #expect(throws: JSONError.self, "\(text)") { try JSONObject(text) }
        }
        #expect(throws: JSONError(.unexpectedValue, at: 0)) { try JSONObject(" []") }
        #expect((try? JSONObject("{}"))?.count == 0)
    }

    @Test func typedLookupsAnswerOnlyTheirKind() throws {
        let object = try JSONObject(#"{"s":"1.5","n":1.5,"z":null,"b":false,"o":{"s":"inner"},"i":-59}"#)
        #expect(object.string("s") == "1.5")
        #expect(object.number("s") == nil)
        #expect(object.number("n") == 1.5)
        #expect(object.string("n") == nil)
        #expect(object.string("z") == nil)
        #expect(object.number("z") == nil)
        #expect(object.string("b") == nil)
        #expect(object.string("o") == nil)
        #expect(object.number("i") == -59)
        #expect(object.string("inner") == nil)
    }

    @Test func lastOfRepeatedNamesCountsAndNamesMayBeEscaped() throws {
        let object = try JSONObject(#"{"a":1,"a\u0062":"x","a":2}"#)
        #expect(object.number("a") == 2)
        #expect(object.string("ab") == "x")
        #expect(object.count == 3)
    }

    @Test func proximityPayloadFields() throws {
        let object = try JSONObject(
            #"{"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":1,"name":"keys","gateway":"gw1","#
                + #""floor":"1","room":"kitchen","address":"c0:ff:ee:00:00:01","rssi":-59,"rssi_filtered":-59.5,"#
                + #""measured_power":-59,"accuracy":1.01,"proximity":"near","timestamp":"2024-05-01T12:00:01.000Z"}"#)
        #expect(object.string("timestamp") == "2024-05-01T12:00:01.000Z")
        #expect(object.number("accuracy") == 1.01)
        #expect(object.number("rssi_filtered") == -59.5)
        #expect(object.number("measured_power") == -59)
        #expect(object.string("room") == "kitchen")
        #expect(object.number("minor") == 1)
    }
}
