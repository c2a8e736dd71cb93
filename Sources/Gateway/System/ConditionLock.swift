import Glibc

/// A mutex with a condition variable (pthread), in place of Foundation's `NSCondition` and with the
/// same calls: lock, wait, signal or broadcast, unlock.
final class ConditionLock: @unchecked Sendable {
    // Invariant for @unchecked Sendable: `mutex` and `condition` are initialised once, never move
    // (allocated, not stored inline) and are only used through the pthread calls, which are
    // thread-safe by contract.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)  // CLOCK_REALTIME, as `WallTime` deadlines are
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a signal (or a spurious wake-up); the caller holds the lock.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// As `wait()`, but gives up at `deadline`: false when it passed without a signal.
    func wait(until deadline: WallTime) -> Bool {
        var time = deadline.timespecValue
        return pthread_cond_timedwait(condition, mutex, &time) == 0
    }

    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }
}
