import AgentCore
import BeaconWire
import Testing
import Vocabulary

/// `TickSpread`'s schedule: the first slice at once, all by a quarter of the interval, and
/// `nextDue` exactly when the next whole slice (or the rest) is allowed, so a loop that sleeps
/// until then neither spins nor lags.
@Suite struct TickSpreadTests {
    @Test func nextDueIsTheFirstMomentAWholeSliceIsAllowed() {
        var random = SystemRandomNumberGenerator()
        let start = Timestamp(microseconds: 1_700_000_000_000_000)
        for _ in 0..<2_000 {
            let total = Int.random(in: 1...3_000, using: &random)
            let slice = Int.random(in: 1...32, using: &random)
            let interval = TimeSpan(microseconds: Int64.random(in: 40...5_000_000, using: &random))
            var spread = TickSpread(tick: 1, start: start, total: total, interval: interval, slice: slice)
            #expect(spread.allowance(at: start) == min(slice, total))
            #expect(spread.allowance(at: start + spread.duration) == total)
            var rounds = 0
            while let due = spread.nextDue {
                let rest = total - spread.released
                let whole = min(slice, rest)
                #expect(spread.allowance(at: due) >= whole, "total \(total) slice \(slice) released \(spread.released)")
                if due > start { #expect(spread.allowance(at: due - TimeSpan(microseconds: 1)) < whole) }
                #expect(due <= start + spread.duration)
                spread.release(min(spread.allowance(at: due), Int.random(in: 1...64, using: &random)))
                rounds += 1
            }
            #expect(spread.released == total)
            #expect(rounds <= total)
        }
    }
}
