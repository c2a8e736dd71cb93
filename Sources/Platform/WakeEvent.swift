import Glibc
import Synchronization

/// A drainable wake-up for one thread that polls: a non-blocking pipe, which `signal()` from any
/// thread makes readable until the poller `drain()`s it. Unlike `StopSignal` it is re-armed by
/// every drain, so it says "look again", not "stop". (eventfd(2) would do, but Glibc's module
/// does not export it.) Signals coalesce: while one is pending (signalled, not yet drained), a
/// further `signal()` makes no system call.
package final class WakeEvent: Sendable {
    /// The read end, to poll for `POLLIN`.
    package let descriptor: Int32
    private let writeEnd: Int32
    /// Set by the signal that wrote to the pipe, cleared by `drain` after it read the pipe empty: a
    /// signal that finds it set comes before that clear, so the poller's work after `drain` sees
    /// whatever the signaller did before signalling.
    private let pending = Atomic<Bool>(false)

    package init() {
        (descriptor, writeEnd) = Syscall.wakePipe(nonBlocking: true)
    }

    deinit {
        _ = Glibc.close(descriptor)
        _ = Glibc.close(writeEnd)
    }

    /// Makes `descriptor` readable; safe from any thread. A full pipe (EAGAIN) is readable already.
    package func signal() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = try? Syscall.retrying("write wake pipe") { Glibc.write(writeEnd, &byte, 1) }
    }

    /// Empties the pipe after a poll found `descriptor` readable (until EAGAIN); the poller then
    /// does what it was woken for.
    package func drain() {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            while (try? Syscall.retrying("read wake pipe") { Glibc.read(descriptor, buffer.baseAddress, 64) }) == 64 {}
        }
        pending.store(false, ordering: .releasing)
    }
}
