import AgentCore
import Testing
import Vocabulary

/// The read loop's pacing on a manual clock: reports arrive at a steady rate, one read per report
/// while reads are immediate, one read per hold while they are held.
@Suite struct ReadPacingTests {
    /// Feeds `pacing` `seconds` of reports at `rate` a second from `start`, reading as it says; the
    /// holds it chose, in order.
    static func run(
        _ pacing: inout ReadPacing, rate: Double, seconds: Double, from start: inout MonotonicInstant
    ) -> [TimeSpan] {
        var holds: [TimeSpan] = []
        let end = start + TimeSpan(microseconds: Int64(seconds * 1e6))
        let gap = 1 / rate
        var due = 0.0  // seconds after `start` of the next report
        var now = start
        while now < end {
            // Wait for the next report (a read at once), or hold and take all that came meanwhile.
            let reportAt = start + TimeSpan(microseconds: Int64(due * 1e6))
            if reportAt > now { now = reportAt }
            var reports = 0
            while start + TimeSpan(microseconds: Int64(due * 1e6)) <= now {
                reports += 1
                due += gap
            }
            let hold = pacing.drained(reports: reports, at: now)
            holds.append(hold)
            now = now + hold
        }
        start = now
        return holds
    }

    static let origin = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func aQuietSourceIsReadAtOnce() {
        var pacing = ReadPacing()
        var now = Self.origin
        let holds = Self.run(&pacing, rate: 30, seconds: 10, from: &now)
        #expect(holds.allSatisfy { $0 == .zero })
        #expect(!pacing.isBusy)
        #expect(abs(pacing.rate - 30) < 3, "\(pacing.rate)")
    }

    @Test func aBusySourceIsHeldUpToTheBound() {
        var pacing = ReadPacing()
        var now = Self.origin
        let holds = Self.run(&pacing, rate: 3_000, seconds: 5, from: &now)
        #expect(pacing.isBusy)
        // After the rate is learnt: a hold of about 512 reports' worth (171 ms), at most 200 ms.
        let last = holds.suffix(10)
        #expect(last.allSatisfy { $0 > .milliseconds(150) && $0 <= ReadPacing.longestAdaptiveHold }, "\(last)")
        // A few wake-ups a second, against one a report read at once.
        #expect(holds.count < 5 * 20, "\(holds.count) reads")
    }

    @Test func aVeryBusySourceIsHeldUntilABatchIsDue() {
        var pacing = ReadPacing()
        var now = Self.origin
        let holds = Self.run(&pacing, rate: 20_000, seconds: 3, from: &now)
        let hold = holds.last ?? .zero
        // 512 reports at 20,000 a second: about 26 ms.
        #expect(hold > .milliseconds(20) && hold < .milliseconds(32), "\(hold)")
    }

    @Test func aSourceThatQuietsDownIsReadAtOnceAgain() {
        var pacing = ReadPacing()
        var now = Self.origin
        _ = Self.run(&pacing, rate: 3_000, seconds: 3, from: &now)
        #expect(pacing.isBusy)
        let holds = Self.run(&pacing, rate: 10, seconds: 5, from: &now)
        #expect(!pacing.isBusy)
        #expect(holds.suffix(20).allSatisfy { $0 == .zero })
        // A silence then a single report: read at once.
        now = now + .seconds(30)
        #expect(pacing.drained(reports: 1, at: now) == .zero)
    }

    /// Between the thresholds the source keeps its state: a rate of 70 a second stays read at once
    /// when it came from quiet, and stays held when it came from busy.
    @Test func betweenTheThresholdsTheStateIsKept() {
        var rising = ReadPacing()
        var now = Self.origin
        _ = Self.run(&rising, rate: 70, seconds: 5, from: &now)
        #expect(!rising.isBusy)
        var falling = ReadPacing()
        now = Self.origin
        _ = Self.run(&falling, rate: 3_000, seconds: 3, from: &now)
        _ = Self.run(&falling, rate: 70, seconds: 5, from: &now)
        #expect(falling.isBusy)
    }

    @Test func aFixedIntervalAlwaysHoldsItsSpan() {
        var held = ReadPacing(.fixed(.milliseconds(50)))
        var now = Self.origin
        #expect(Self.run(&held, rate: 10, seconds: 2, from: &now).allSatisfy { $0 == .milliseconds(50) })
        #expect(held.longestHold == .milliseconds(50))
        var immediate = ReadPacing(.fixed(.zero))
        #expect(Self.run(&immediate, rate: 3_000, seconds: 2, from: &now).allSatisfy { $0 == .zero })
        #expect(immediate.longestHold == .zero)
        #expect(ReadPacing().longestHold == ReadPacing.longestAdaptiveHold)
    }

    @Test func theConfigurationKeyMapsToAPolicy() {
        #expect(ReadPacing.Policy(readInterval: nil) == .adaptive)
        #expect(ReadPacing.Policy(readInterval: .zero) == .fixed(.zero))
        #expect(ReadPacing.Policy(readInterval: .milliseconds(50)) == .fixed(.milliseconds(50)))
    }
}
