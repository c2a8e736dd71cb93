import MessageContract
import Testing
import Vocabulary

/// `GatewayClock` on a manual clock: skew detected from delays, corrected, and a backlog refused
/// without being taken for skew (docs/locator.md, "Gateway clocks").
@Suite struct GatewayClockTests {
    /// 2026-01-01T00:00:00Z.
    let t0 = Timestamp(microseconds: 1_767_225_600_000_000)
    let tolerance = TimeSpan.seconds(2)

    /// `s` seconds after `t0`.
    func at(_ s: Double) -> Timestamp { t0 + TimeSpan(microseconds: Int64((s * 1e6).rounded())) }

    /// Readings every 0.5 s for `seconds`, stamped by a clock `skew` off, received 30 ms later.
    func feed(_ clock: inout GatewayClock, skew: TimeSpan, from: Double, seconds: Double) -> [Timestamp?] {
        stride(from: from, to: from + seconds, by: 0.5).map { s in
            let now = at(s)
            return clock.admit(now + skew, received: now + .milliseconds(30), tolerance: tolerance)
        }
    }

    @Test func aClockAheadIsCorrectedFromItsFirstMessage() {
        var clock = GatewayClock()
        let admitted = feed(&clock, skew: .seconds(5), from: 0, seconds: 20)
        #expect(clock.state == .ahead)
        #expect(clock.offset == .milliseconds(4970))
        // Each reading on the locator's clock, as received: the offset absorbs the path's 30 ms.
        #expect(admitted == stride(from: 0.0, to: 20, by: 0.5).map { at($0 + 0.03) })
        #expect(clock.late == 0)
    }

    @Test(arguments: [60, 365 * 86_400] as [Int64])
    func aClockBehindIsRefusedForAWindowThenCorrected(seconds: Int64) {
        var clock = GatewayClock()
        let admitted = feed(&clock, skew: .seconds(-seconds), from: 0, seconds: 30)
        // 0 … 9.5 s refused (a window of evidence), then corrected to within the path's latency.
        #expect(admitted.prefix(20).allSatisfy { $0 == nil })
        #expect(clock.late == 20)
        #expect(clock.state == .behind)
        #expect(clock.offset == TimeSpan(microseconds: -(seconds * 1_000_000 + 30_000)))
        #expect(admitted.dropFirst(20).map { $0 } == stride(from: 10.0, to: 30, by: 0.5).map { at($0 + 0.03) })
        // NTP fixed it: the first delay within tolerance ends `behind`.
        _ = feed(&clock, skew: .zero, from: 30, seconds: 1)
        #expect(clock.state == .ok)
    }

    @Test func aProofOfAheadHoldsAWindowAfterTheLastOne() {
        var clock = GatewayClock()
        _ = feed(&clock, skew: .seconds(5), from: 0, seconds: 5)
        // Its clock fixed: readings are still corrected by the proof of 4.5 s, so 5 s late, refused.
        let fixed = feed(&clock, skew: .zero, from: 5, seconds: 9)
        #expect(clock.state == .ahead && fixed.allSatisfy { $0 == nil })
        let after = feed(&clock, skew: .zero, from: 14, seconds: 2)
        #expect(clock.state == .ok)
        #expect(after.last == at(15.5))
    }

    /// A gateway back from two minutes cut off sends its backlog in order, then live readings: every
    /// reading older than the tolerance is refused, the live ones count as they are, and the clock
    /// stays `ok` — the backlog is old, not skewed.
    @Test func aBacklogIsRefusedAndNotTakenForSkew() {
        var clock = GatewayClock()
        _ = feed(&clock, skew: .zero, from: 0, seconds: 10)
        // 10 s … 130 s held; drained from 130 s at 100 readings a second.
        var admitted: [Timestamp?] = []
        for (i, s) in stride(from: 10.0, to: 130, by: 0.5).enumerated() {
            admitted.append(
                clock.admit(at(s), received: at(130 + Double(i) / 100), tolerance: tolerance))
            #expect(clock.state == .ok)
        }
        // The newest held reading is 2.9 s old when it arrives: none counts.
        #expect(admitted.allSatisfy { $0 == nil })
        #expect(clock.late == 240)
        let live = feed(&clock, skew: .zero, from: 133, seconds: 20)
        #expect(clock.state == .ok && live.allSatisfy { $0 != nil })
    }

    /// A backlog that drains slower than the window still never looks like one steady delay.
    @Test func aSlowBacklogIsNotTakenForSkew() {
        var clock = GatewayClock()
        // 300 s held, drained over 30 s: delays fall from 300 s to 0 at 9 s a second.
        for i in 0..<600 {
            _ = clock.admit(at(Double(i) / 2), received: at(300 + Double(i) / 20), tolerance: tolerance)
            #expect(clock.state == .ok)
        }
    }
}
