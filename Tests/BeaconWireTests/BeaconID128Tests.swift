import BeaconWire
import Testing

/// `BeaconID128(uuidString:)`: the text form every config, topic and retained message carries.
@Suite struct BeaconID128Tests {
    @Test func parsesTheTextFormTheBareFormAndEitherCase() throws {
        let canonical = try #require(BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0"))
        #expect(canonical.high == 0xE2C5_6DB5_DFFB_48D2)
        #expect(canonical.low == 0xB060_D0F5_A710_96E0)
        #expect(BeaconID128(uuidString: "E2C56DB5DFFB48D2B060D0F5A71096E0") == canonical)
        #expect(BeaconID128(uuidString: "e2c5-6db5dffb48d2b060d0f5a71096e0-") == canonical)
        #expect(canonical.uuidString == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
    }

    @Test func refusesWrongLengthsAndAnythingButHexAndDashes() {
        for text in [
            "", "-", "e2c56db5-dffb-48d2-b060-d0f5a71096e", "e2c56db5-dffb-48d2-b060-d0f5a71096e00",
            "e2c56db5 dffb 48d2 b060 d0f5a71096e0", "e2c56db5-dffb-48d2-b060-d0f5a71096eg",
            "e2c56db5-dffb-48d2-b060-d0f5a71096é0", "e2c56db5-dffb-48d2-b060-d0f5a71096e0\n",
        ] {
            #expect(BeaconID128(uuidString: text) == nil, "\(text)")
        }
    }

    /// `BeaconIdentity`'s hand-written `==` and `<` (inlinable, for the monitor's table and the
    /// ranging sort) agree with comparing the fields as tuples, for identities that differ in
    /// one field or several.
    @Test func identityComparisonsAgreeWithTheFields() {
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return x
        }
        var ids: [BeaconIdentity] = []
        for _ in 0..<400 {
            let r = next()
            ids.append(
                BeaconIdentity(
                    scheme: [.uuid, .eddystone, .device][Int(r % 3)],
                    id: BeaconID128(high: r >> 2 & 3, low: r >> 4 & 3), major: UInt16(r >> 6 & 1),
                    minor: UInt16(r >> 7 & 1)))
        }
        func fields(_ i: BeaconIdentity) -> (UInt8, UInt64, UInt64, UInt16, UInt16) {
            (i.scheme.rawValue, i.id.high, i.id.low, i.major, i.minor)
        }
        var equal = 0
        var wrong = 0
        for a in ids {
            for b in ids {
                if (a == b) != (fields(a) == fields(b)) || (a < b) != (fields(a) < fields(b)) { wrong += 1 }
                if a == b { equal += 1 }
            }
        }
        #expect(wrong == 0)
        #expect(equal > ids.count)  // some distinct draws are equal, so both outcomes are tested
    }
}
