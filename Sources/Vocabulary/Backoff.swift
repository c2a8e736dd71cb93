/// Reconnect delays: exponential growth from `minimum` to a `maximum` cap, with jitter so that a
/// fleet of gateways does not reconnect in lockstep after a broker restart. The jitter is added on
/// top of the step (uniform in step … step·(1 + `jitter`), never past `maximum`), so `minimum` is the
/// shortest wait and `maximum` the longest, as `mqtt.reconnect_min`/`reconnect_max` promise. At the cap
/// the delay is `maximum` exactly; by then the random waits before it keep a fleet apart.
///
/// A pure value: the random source is injected, so tests are deterministic.
package struct Backoff: Sendable, Equatable {
    package var minimum: TimeSpan
    package var maximum: TimeSpan
    /// Growth factor per failed attempt.
    package var multiplier: Int64
    /// Fraction of each step that is randomised, 0…1.
    package var jitter: Double
    /// Failed attempts since the last success.
    package private(set) var attempts: Int = 0

    package init(minimum: TimeSpan, maximum: TimeSpan, multiplier: Int64 = 2, jitter: Double = 0.5) {
        self.minimum = max(minimum, TimeSpan(microseconds: 1000))
        self.maximum = max(maximum, self.minimum)
        self.multiplier = max(multiplier, 1)
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The un-jittered delay of the next attempt: minimum·multiplier^attempts, capped at maximum.
    package var step: TimeSpan {
        var delay = minimum.microseconds
        for _ in 0..<attempts {
            if delay >= maximum.microseconds / multiplier { return maximum }
            delay *= multiplier
        }
        return TimeSpan(microseconds: min(delay, maximum.microseconds))
    }

    /// The delay before the next attempt; counts the attempt.
    package mutating func nextDelay<R: RandomNumberGenerator>(using random: inout R) -> TimeSpan {
        let base = step.microseconds
        attempts += 1
        let spread = min(Int64((Double(base) * jitter).rounded()), maximum.microseconds - base)
        guard spread > 0 else { return TimeSpan(microseconds: base) }
        return TimeSpan(microseconds: base + Int64.random(in: 0...spread, using: &random))
    }

    /// A connection succeeded: start again from `minimum`.
    package mutating func reset() { attempts = 0 }
}
