import Vocabulary

/// When `locate`'s core wakes (`LocatorCore`): its tick period and the next tick due, and once a
/// stop began, how long the outbox may flush and until when.
struct LocatorCadence: Sendable {
    /// The decision period on the monotonic clock, at least 1 ms.
    let period: TimeSpan
    /// How long a stop waits for the outbox to be acknowledged.
    let flush: TimeSpan
    /// The next tick due.
    var next: MonotonicInstant
    /// Set by a stop: the instant the flush gives up.
    var finishing: MonotonicInstant?

    init(period: TimeSpan, flush: TimeSpan, start: MonotonicInstant) {
        self.period = max(period, .milliseconds(1))
        self.flush = flush
        next = start
    }
}
