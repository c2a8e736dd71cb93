import Glibc
import Vocabulary

/// The clock a live source's packets and the pipeline's deadlines share: the wall clock read once,
/// at the first use, then moved on by CLOCK_MONOTONIC. A step of the wall clock (NTP at boot, an
/// operator's `date -s`) so moves no exit timeout and no ranging tick; payloads still carry the
/// wall clock, which the agent core adds back as an offset when it stamps them.
package enum SteadyWallClock {
    /// Read together, once: the first caller (the shell, before the source thread starts) fixes it.
    private static let origin = (wall: WallClock.now(), monotonic: MonotonicClock.now(), skew: WallClockSteps.offset())

    package static var originWall: Timestamp { origin.wall }
    package static var originMonotonic: MonotonicInstant { origin.monotonic }
    /// Test-only: how far `WallClockSteps` had moved the wall clock at the origin (a gateway whose
    /// clock is off from the start, `make test-chaos`). A simulated radio takes it off to hear the
    /// world on true time while the gateway stamps by its own clock; zero outside such a test.
    package static var testSkew: TimeSpan { TimeSpan(microseconds: origin.skew / 1000) }

    /// Now on the steady timeline, in seconds since the epoch (what the simulators schedule by).
    package static func seconds() -> Double { Double(now().microseconds) / 1e6 }

    /// Now on the steady timeline.
    package static func now() -> Timestamp {
        origin.wall + TimeSpan(microseconds: (MonotonicClock.now().nanoseconds - origin.monotonic.nanoseconds) / 1000)
    }
}
