import RoomScoring
import Testing

@Suite struct StrongestReceiverTests {
    typealias Reading = StrongestReceiver.Reading

    /// Receiver 0 steady at −60 every second; receiver 1 at `level(t)`.
    static func readings(_ level: (Int) -> Double?) -> [[Reading]] {
        [
            (0...20).map { Reading(time: Double($0), rssi: -60) },
            (0...20).compactMap { t in level(t).map { Reading(time: Double(t), rssi: $0) } },
        ]
    }

    static func owners(
        _ rule: StrongestReceiver.Rule, _ readings: [[Reading]], ticks: ClosedRange<Int> = 0...20
    ) -> [Int?] {
        var engine = StrongestReceiver(rule: rule, readings: readings)
        return ticks.map { engine.owner(at: Double($0)) }
    }

    @Test func latestFollowsTheNewestReadingMedianItsWindow() {
        // Receiver 1 at −50 for one reading at t = 5, −70 otherwise.
        let readings = Self.readings { $0 == 5 ? -50 : -70 }
        let latest = Self.owners(.latest, readings, ticks: 4...6)
        #expect(latest == [0, 1, 0])
        let median = Self.owners(.median, readings, ticks: 4...6)
        #expect(median == [0, 0, 0])
    }

    @Test func hysteresisWaitsForTheMarginToHoldTwoSeconds() {
        // Receiver 1 at −55 from t = 5: its 4 s median (window (t − 4, t]) is −62.5 at t = 6
        // (−70, −70, −55, −55) and −55 from t = 7, 5 dB over receiver 0's −60.
        let readings = Self.readings { $0 >= 5 ? -55 : -70 }
        let owners = Self.owners(.medianHysteresis, readings, ticks: 0...12)
        // ≥ 3 dB stronger from t = 7; two seconds later (t = 9) it takes over.
        #expect(owners == [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1])
        let plain = Self.owners(.median, readings, ticks: 0...12)
        #expect(plain[7] == 1)
    }

    @Test func hysteresisIgnoresAChallengerThatFallsBackWithinTheHold() {
        // −55 at 5…7 only: the median is ≥ 3 dB stronger at t = 7 and 8 (−55 over −60), not at 9.
        let readings = Self.readings { (5...7).contains($0) ? -55 : -70 }
        let owners = Self.owners(.medianHysteresis, readings, ticks: 0...14)
        #expect(!owners.contains(1))
    }

    @Test func anOwnerWithoutReadingsInTheWindowIsReplacedAtOnce() {
        let readings: [[Reading]] = [
            (0...3).map { Reading(time: Double($0), rssi: -50) },
            (0...20).map { Reading(time: Double($0), rssi: -80) },
        ]
        let owners = Self.owners(.medianHysteresis, readings, ticks: 0...9)
        #expect(owners == [0, 0, 0, 0, 0, 0, 0, 1, 1, 1])
    }

    @Test func noReadingInTheWindowIsNoAnswer() {
        let readings: [[Reading]] = [[Reading(time: 0, rssi: -50)]]
        #expect(Self.owners(.latest, readings, ticks: 0...5) == [0, 0, 0, 0, nil, nil])
    }
}
