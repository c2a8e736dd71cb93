import Glibc
import Vocabulary

/// CLOCK_MONOTONIC as a `MonotonicInstant`: deadlines and timers (an NTP step does
/// not move it), and condition waits on that clock (`ConditionLock`).
package enum MonotonicClock {
    package static func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: SystemClock.nanoseconds(CLOCK_MONOTONIC))
    }

    /// `duration` from now: negative counts as zero, and over 10⁹ s (31 years) as 10⁹ s.
    package static func deadline(after duration: Duration) -> MonotonicInstant {
        let (seconds, attoseconds) = max(duration, .zero).components
        let span = min(seconds, 1_000_000_000) * 1_000_000_000 + attoseconds / 1_000_000_000
        return MonotonicInstant(nanoseconds: now().nanoseconds + span)
    }

    /// `instant` as an absolute CLOCK_MONOTONIC `timespec`.
    static func timespecValue(_ instant: MonotonicInstant) -> timespec {
        SystemClock.timespecValue(nanoseconds: instant.nanoseconds)
    }
}
