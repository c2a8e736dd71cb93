import Glibc
import Vocabulary

/// The wall clock (CLOCK_REALTIME, plus a test's steps, `WallClockSteps`) as the one wall instant,
/// `Timestamp`: what payloads and retained state are stamped with. The daemon links no Foundation
/// (`Date` costs it ~10 MB of RSS). Deadlines use `MonotonicClock`, and a live source's packets
/// `SteadyWallClock`.
package enum WallClock {
    /// Now.
    package static func now() -> Timestamp {
        Timestamp(microseconds: (SystemClock.nanoseconds(CLOCK_REALTIME) &+ WallClockSteps.offset()) / 1000)
    }
}
