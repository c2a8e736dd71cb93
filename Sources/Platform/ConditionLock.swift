import Glibc
import Vocabulary

/// A mutex with condition variables (pthread), in place of Foundation's `NSCondition` and with the
/// same calls: lock, wait, signal or broadcast, unlock. More than one condition can share the
/// mutex (`init(conditions:)`), so a producer waiting for space is not woken by every event its
/// consumer is sent.
package final class ConditionLock: @unchecked Sendable {
    // Invariant for @unchecked Sendable: `mutex` and `conditions` are initialised once, never move
    // (allocated, not stored inline) and are only used through the pthread calls, which are
    // thread-safe by contract.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    private let conditionCount: Int

    package init(conditions count: Int = 1) {
        conditionCount = max(count, 1)
        conditions = .allocate(capacity: conditionCount)
        pthread_mutex_init(mutex, nil)
        // Timed waits are on CLOCK_MONOTONIC, so a wall-clock step moves no deadline.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        for c in 0..<conditionCount { pthread_cond_init(conditions + c, &attributes) }
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        for c in 0..<conditionCount { pthread_cond_destroy(conditions + c) }
        pthread_mutex_destroy(mutex)
        conditions.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a signal on condition `c` (or a spurious wake-up); the caller holds the lock.
    package func wait(_ c: Int = 0) { pthread_cond_wait(conditions + c, mutex) }

    /// As `wait()`, but gives up at `deadline`: false when it passed without a signal.
    package func wait(until deadline: MonotonicInstant, _ c: Int = 0) -> Bool {
        var time = MonotonicClock.timespecValue(deadline)
        return pthread_cond_timedwait(conditions + c, mutex, &time) == 0
    }

    package func signal(_ c: Int = 0) { pthread_cond_signal(conditions + c) }
    package func broadcast(_ c: Int = 0) { pthread_cond_broadcast(conditions + c) }
}
