import Glibc

/// Wall time for the benchmark, read from CLOCK_MONOTONIC so NTP steps never bend a measurement.
enum BenchClock {
    /// Nanoseconds since an arbitrary fixed point (boot).
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Nanoseconds of CPU time the calling thread has used. Single-core sections time themselves
    /// with this, so a shared machine that deschedules the benchmark stretches wall time but not
    /// the figures (the Python peer uses the same clock: `time.thread_time_ns`).
    static func threadCPUNow() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Seconds elapsed since `start` (a value of `now()`).
    static func seconds(since start: UInt64) -> Double { Double(now() &- start) / 1e9 }

    /// Sleeps for `seconds` of wall time.
    static func sleep(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}
