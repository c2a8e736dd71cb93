import AgentCore
import Glibc

/// CLOCK_MONOTONIC as the agent core's `MonotonicInstant`: deadlines and timers (an NTP step does
/// not move it), and condition waits on that clock (`ConditionLock`).
package enum MonotonicClock {
    package static func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: SystemClock.nanoseconds(CLOCK_MONOTONIC))
    }

    /// `instant` as an absolute CLOCK_MONOTONIC `timespec`.
    static func timespecValue(_ instant: MonotonicInstant) -> timespec {
        SystemClock.timespecValue(nanoseconds: instant.nanoseconds)
    }
}
