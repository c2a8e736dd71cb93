import BeaconCore
import BeaconWire
import TestFixtures
import Testing
import Vocabulary

@Suite struct BackoffTests {
    @Test func stepsDoubleFromTheMinimumUpToTheCap() {
        var backoff = Backoff(minimum: .seconds(1), maximum: .seconds(10), jitter: 0)
        var random = SeededRandom(state: 1)
        let delays = (0..<6).map { _ in backoff.nextDelay(using: &random).microseconds / 1_000_000 }
        #expect(delays == [1, 2, 4, 8, 10, 10])
    }

    /// reconnect_min is the least wait and reconnect_max the most: jitter adds up to half a step on
    /// top of it, never taking a delay below its step or above the cap (issue 17: a first retry came
    /// 0.5–0.9 s after a loss with reconnect_min 1s).
    @Test func jitterAddsToEachStepAndNeverPassesTheCap() {
        var backoff = Backoff(minimum: .seconds(2), maximum: .seconds(60), jitter: 0.5)
        var random = SeededRandom(state: 42)
        for attempt in 0..<10 {
            let step = backoff.step
            let delay = backoff.nextDelay(using: &random)
            #expect(delay >= step, "attempt \(attempt)")
            #expect(delay.microseconds <= step.microseconds * 3 / 2, "attempt \(attempt)")
            #expect(delay <= .seconds(60), "attempt \(attempt)")
        }
    }

    @Test func theFirstDelayIsNeverShorterThanTheMinimum() {
        for seed in 0..<200 as Range<UInt64> {
            var backoff = Backoff(minimum: .seconds(1), maximum: .seconds(60))
            var random = SeededRandom(state: seed)
            let first = backoff.nextDelay(using: &random)
            #expect(first >= .seconds(1), "seed \(seed): \(first.microseconds) µs")
            #expect(first <= .milliseconds(1500), "seed \(seed): \(first.microseconds) µs")
        }
    }

    @Test func jitterSpreadsAFleetThatStartsTogether() {
        var delays = Set<Int64>()
        for seed in 0..<20 as Range<UInt64> {
            var backoff = Backoff(minimum: .seconds(1), maximum: .seconds(60))
            var random = SeededRandom(state: seed)
            delays.insert(backoff.nextDelay(using: &random).microseconds)
        }
        #expect(delays.count > 10)
    }

    @Test func resetStartsAgainFromTheMinimum() {
        var backoff = Backoff(minimum: .milliseconds(500), maximum: .seconds(30), jitter: 0)
        var random = SeededRandom(state: 7)
        for _ in 0..<5 { _ = backoff.nextDelay(using: &random) }
        #expect(backoff.step == .seconds(16))
        backoff.reset()
        #expect(backoff.attempts == 0)
        #expect(backoff.nextDelay(using: &random) == .milliseconds(500))
    }

    @Test func hugeAttemptCountsDoNotOverflow() {
        var backoff = Backoff(minimum: .seconds(1), maximum: .seconds(300), jitter: 0)
        var random = SeededRandom(state: 3)
        for _ in 0..<200 { _ = backoff.nextDelay(using: &random) }
        #expect(backoff.step == .seconds(300))
    }
}
