import Vocabulary

/// A value threads wait on until it reaches a state (connected, acknowledged, quiet): every
/// `withLock` wakes the waiters to check again, and each wait ends at a deadline on the monotonic
/// clock. A wait for stop is `StopSignal`'s sleep instead.
package final class WaitableState<Value: Sendable>: @unchecked Sendable {
    // Invariant for @unchecked Sendable: `value` is only read or written with `condition` locked.
    private let condition = ConditionLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Reads or changes the value, then wakes every waiter. Reads wake them too: a needless check
    /// costs less than a rule about which calls change what a waiter reads, and with nobody
    /// waiting the broadcast is one atomic load.
    @discardableResult
    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Waits until `ready` holds (true), or until `deadline` (then it is checked once more). `ready`
    /// runs with the lock held, at once and after every change.
    package func wait(until deadline: MonotonicInstant, for ready: (Value) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !ready(value) {
            guard condition.wait(until: deadline) else { return ready(value) }
        }
        return true
    }

    /// As `wait(until:for:)`, for up to `timeout` from now.
    package func wait(for timeout: Duration, for ready: (Value) -> Bool) -> Bool {
        wait(until: MonotonicClock.deadline(after: timeout), for: ready)
    }
}
