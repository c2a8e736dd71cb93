import Glibc
import Vocabulary

/// The one place that reads clock_gettime(2) and touches `struct timespec`'s members. Platform
/// imports no C shim but Glibc, so Swift cannot attribute the struct to another module's copy of
/// the glibc headers (MemberImportVisibility).
package enum SystemClock {
    /// `clock` in nanoseconds: CLOCK_REALTIME counts from the Unix epoch, CLOCK_MONOTONIC from an
    /// arbitrary start (boot) and is not stepped by NTP.
    @inline(__always)
    package static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// `clock` in whole microseconds, as `Timestamp` counts.
    @inline(__always)
    package static func microseconds(_ clock: clockid_t) -> Int64 { nanoseconds(clock) / 1000 }

    /// `nanoseconds` on some clock as a `timespec`, for absolute waits (pthread_cond_timedwait(3)).
    package static func timespecValue(nanoseconds: Int64) -> timespec {
        let (seconds, rest) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return rest < 0
            ? timespec(tv_sec: Int(seconds) - 1, tv_nsec: Int(rest) + 1_000_000_000)
            : timespec(tv_sec: Int(seconds), tv_nsec: Int(rest))
    }
}
