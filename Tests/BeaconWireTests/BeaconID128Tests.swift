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
}
