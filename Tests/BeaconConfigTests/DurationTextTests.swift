import BeaconCore
import BeaconWire
import Settings
import Testing
import Vocabulary

@testable import BeaconConfig

@Suite struct DurationTextTests {
    @Test(
        arguments: [
            ("10s", 10_000_000), ("500ms", 500_000), ("2m", 120_000_000), ("1h", 3_600_000_000), ("1.5s", 1_500_000),
            ("250us", 250), ("1m30s", 90_000_000), ("0", 0), ("0s", 0), ("0.625ms", 625), ("10.24s", 10_240_000),
            ("1h0m1s", 3_601_000_000),
        ] as [(String, Int64)])
    func parsesUnits(text: String, microseconds: Int64) throws {
        #expect(try DurationText.parse(text).get() == TimeSpan(microseconds: microseconds))
    }

    @Test func aBareNumberAsksForAUnit() {
        #expect(DurationText.parse("10") == .failure(.init(message: "'10' has no unit; add one, e.g. 10s or 10ms")))
        #expect(DurationText.parse("1.5") == .failure(.init(message: "'1.5' has no unit; add one, e.g. 1.5s or 1.5ms")))
    }

    @Test(arguments: ["", "s", "10 s", "10x", "1.5.2s", "ten seconds", "10S", ".5s", "5.s", "1e3ms"])
    func malformedDurations(text: String) {
        let expected = "'\(text)' is not a duration; write a number and a unit: 250ms, 10s, 1.5s, 2m, 1h"
        #expect(DurationText.parse(text) == .failure(.init(message: expected)))
    }

    @Test func negativeAndTooFineDurationsAreRefused() {
        #expect(DurationText.parse("-1s") == .failure(.init(message: "must not be negative, found '-1s'")))
        #expect(
            DurationText.parse("1.0000001s") == .failure(.init(message: "'1.0000001s' is finer than a microsecond")))
        #expect(DurationText.parse("999999999999h") == .failure(.init(message: "'999999999999h' is too long")))
    }

    @Test(
        arguments: [
            (0, "0"), (90_000_000, "90s"), (100_000, "100ms"), (2_500, "2.5ms"), (10_240_000, "10.24s"),
            (900_000_000, "15m"), (3_600_000_000, "1h"), (60_000_000, "1m"), (1_280_000, "1.28s"), (1, "1us"),
            (90_000_007, "1m30.000007s"), (3_600_500_000, "1h0.5s"), (7_384_000_000, "2h3m4s"),
        ] as [(Int64, String)])
    func formatsReadably(microseconds: Int64, text: String) throws {
        let span = TimeSpan(microseconds: microseconds)
        #expect(DurationText.format(span) == text)
        #expect(try DurationText.parse(text).get() == span)
    }

    @Test func formatReadsBackExactlyAcrossMagnitudes() throws {
        var value: Int64 = 1
        while value < 100_000_000_000 {
            for span in [value, value * 3 + 7, value * 625] {
                #expect(
                    try DurationText.parse(DurationText.format(TimeSpan(microseconds: span))).get().microseconds == span
                )
            }
            value *= 10
        }
    }

    @Test func durationsReadFromYAMLMayBeQuoted() throws {
        #expect(try parse("monitoring:\n  exit_timeout: \"20s\"\n").monitoring.exitTimeout == .seconds(20))
    }
}
