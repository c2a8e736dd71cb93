import RoomScoring
import Testing

@Suite struct RecordedTimeTests {
    /// The flat's first calibration row, 1627993699976 ms (2021-08-03T12:28:19.976Z), as exporters
    /// write it.
    @Test(arguments: [
        "2021-08-03T12:28:19.976Z", "2021-08-03 12:28:19.976", "\"2021-08-03 12:28:19,976\"",
        "2021-08-03T14:28:19.976+02:00", "2021-08-03T14:28:19.976+0200", "2021-08-03T07:28:19.976-05",
        " 2021-08-03t12:28:19.976z ",
    ])
    func aDateAndTimeIsSecondsSince1970(_ field: String) throws {
        let seconds = try #require(RecordedTime.seconds(Substring(field)))
        #expect(abs(seconds - 1_627_993_699.976) < 1e-6)
    }

    @Test func secondsAndTheirFractionAreOptional() {
        #expect(RecordedTime.seconds("1970-01-01T00:00") == 0)
        #expect(RecordedTime.seconds("1970-01-01 00:01:05") == 65)
        #expect(RecordedTime.seconds("2000-03-01T00:00:00Z") == 951_868_800)
        #expect(RecordedTime.seconds("2024-02-29T00:00:00Z") == 1_709_164_800)
        #expect(RecordedTime.seconds("1969-12-31T23:59:59Z") == -1)
    }

    @Test(arguments: [
        "", "-67", "1627993699.976", "2021-08-03", "2021-8-3 12:28", "2021-08-03T12:28:", "2021-08-03T12:28:19.",
        "2021-13-03T12:28", "2021-02-29T12:28", "2021-04-31T12:28", "2021-08-03T24:00", "2021-08-03T12:60",
        "2021-08-03T12:28:19Q", "2021-08-03T12:28+25:00", "2021-08-03T12:28:19 UTC",
    ])
    func anythingElseIsNoTime(_ field: String) {
        #expect(RecordedTime.seconds(Substring(field)) == nil)
    }
}
