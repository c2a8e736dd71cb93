import Glibc
import Synchronization

/// The one interruptible sleep. A worker thread sleeps on it; `stop()` from any thread wakes every
/// sleeper at once and makes every later sleep return at once. It is a pipe whose read end becomes
/// readable on stop (written once, never drained), so the wait is poll(2)'s: a relative timeout on
/// the kernel's monotonic clock, which a wall-clock step does not move.
package final class StopSignal: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32
    private let stopped = Atomic<Bool>(false)

    package init() {
        (readEnd, writeEnd) = Syscall.wakePipe(nonBlocking: false)
    }

    deinit {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }

    package var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Wakes every sleeper; idempotent, safe from any thread.
    package func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = try? Syscall.retrying("write stop pipe") { Glibc.write(writeEnd, &byte, 1) }
    }

    /// Sleeps for `duration`, or until `stop()`. True when the whole time passed, false when stopped.
    @discardableResult
    package func sleep(for duration: Duration) -> Bool {
        guard !isStopped else { return false }
        guard duration > .zero else { return true }
        // A failed poll on our own pipe cannot happen short of a bug; count it as a stop.
        let events =
            (try? Syscall.poll(readEnd, timeout: duration) { code in SystemCallError("poll", code: code) }) ?? 1
        return events == 0 && !isStopped
    }

    /// Waits up to `timeout` for `events` on `fd`, or until `stop()`: the events on `fd`, empty when
    /// the time ran out or a stop came first. Once stopped it returns at once, so a caller that
    /// still has to wait on `fd` (a shutdown handshake) polls `fd` alone.
    package func poll<E: Error>(
        _ fd: Int32, events: Int16 = Int16(POLLIN), timeout: Duration, failure: (Int32) -> E
    ) throws(E) -> Int16 {
        try withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { (descriptors) throws(E) -> Int16 in
            descriptors.initializeElement(at: 0, to: pollfd(fd: fd, events: events, revents: 0))
            descriptors.initializeElement(at: 1, to: pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0))
            try Syscall.poll(descriptors, timeout: timeout, failure: failure)
            return descriptors[0].revents
        }
    }

    /// Sleeps until `deadline` on the continuous (monotonic) clock, or until `stop()`.
    @discardableResult
    package func sleep(until deadline: ContinuousClock.Instant) -> Bool {
        sleep(for: deadline - .now)
    }

    /// As `sleep(for:)` with seconds (≤ 0 or not finite: returns at once).
    @discardableResult
    package func sleep(seconds: Double) -> Bool {
        guard seconds > 0, seconds.isFinite else { return !isStopped }
        return sleep(for: .nanoseconds(Int64(min(seconds, 1e9) * 1e9)))
    }
}
