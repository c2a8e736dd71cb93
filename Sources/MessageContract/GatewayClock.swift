import Vocabulary

/// One gateway's clock as a locator sees it (docs/locator.md, "Gateway clocks"). A message's delay —
/// when it was received, by the locator's clock, less the timestamp the gateway wrote — is the broker
/// path's latency less the gateway's offset (its clock minus the locator's). Latency is never
/// negative and, on a working path, under `tolerance`; so:
///
/// - a delay below −`tolerance` proves the gateway's clock is ahead; it is `ahead` at once, by the
///   smallest delay of the last `window`, until no message of the `window` proves it;
/// - delays above `tolerance` for a whole `window`, all within `tolerance` of each other, mean its clock
///   is `behind`, by the smallest of them. A backlog (a gateway back from a partition, a queue
///   drained) is old too, but its delays fall as it drains and it ends with fresh messages, so it
///   never lasts a window at one delay; one delay within `tolerance` ends `behind` (it proves the
///   clock is not that far behind).
///
/// `admit` takes a reading's timestamp onto the locator's clock — less the offset while `ahead` or
/// `behind` — and refuses it when it is then still older than `tolerance`: the locator does not decide
/// on readings that late (a backlog's, or a behind clock's before it is known).
package struct GatewayClock: Sendable {
    package enum State: String, Sendable, Equatable {
        case ok, ahead, behind
    }

    /// How long a clock must look behind before it counts as `behind`, and how long a proof of
    /// `ahead` holds.
    package static let window = TimeSpan.seconds(10)
    /// The window's minimum is kept per slice of this length (bounded memory at any message rate).
    static let slice = TimeSpan.seconds(1)

    package private(set) var state: State = .ok
    /// The gateway's clock minus the locator's, less the fastest path's latency: minus the smallest
    /// delay of the last `window` (of the run that made it `behind`, while behind).
    package private(set) var offset = TimeSpan(microseconds: 0)
    /// Readings refused as late (older than `tolerance` on the locator's clock, after correction).
    package private(set) var late = 0

    /// The smallest delay per slice of receive time, oldest first, within `window`.
    private var slices: [(start: Timestamp, delay: TimeSpan)] = []
    /// The current run of delays above `tolerance`: when it began and its smallest and largest delay.
    private var run: (since: Timestamp, low: TimeSpan, high: TimeSpan)?

    package init() {}

    /// The timestamp to decide `stamp` by, on the locator's clock, or nil when it is too late to
    /// count; `received` is the locator's clock when the message arrived.
    package mutating func admit(_ stamp: Timestamp, received: Timestamp, tolerance: TimeSpan) -> Timestamp? {
        observe(delay: received - stamp, at: received, tolerance: tolerance)
        let corrected = correct(stamp)
        guard (received - corrected).microseconds <= tolerance.microseconds else {
            late += 1
            return nil
        }
        return corrected
    }

    /// The locator's clock stepped by `delta` (`Locator.shiftTimeline`): the receive times held move with it.
    package mutating func shift(by delta: TimeSpan) {
        for i in slices.indices { slices[i].start = slices[i].start + delta }
        if let r = run { run = (r.since + delta, r.low, r.high) }
    }

    /// `stamp` on the locator's clock: less the offset while the clock is known to be off.
    package func correct(_ stamp: Timestamp) -> Timestamp { state == .ok ? stamp : stamp - offset }

    private mutating func observe(delay: TimeSpan, at received: Timestamp, tolerance: TimeSpan) {
        let tol = tolerance.microseconds
        // The window's minimum, slice by slice.
        slices.removeAll { (received - $0.start).microseconds >= Self.window.microseconds }
        if let last = slices.last, (received - last.start).microseconds < Self.slice.microseconds {
            slices[slices.count - 1].delay = min(last.delay, delay)
        } else {
            slices.append((received, delay))
        }
        // A run of late delays at one level; a delay within tolerance ends it, one that strays from
        // it starts another (a backlog draining).
        if delay.microseconds <= tol {
            run = nil
        } else if let r = run, max(r.high, delay).microseconds - min(r.low, delay).microseconds <= tol {
            run = (r.since, min(r.low, delay), max(r.high, delay))
        } else {
            run = (received, delay, delay)
        }
        let smallest = slices.map(\.delay).min() ?? delay
        if smallest.microseconds < -tol {
            state = .ahead
            offset = TimeSpan(microseconds: -smallest.microseconds)
        } else if let r = run, (received - r.since).microseconds >= Self.window.microseconds {
            state = .behind
            offset = TimeSpan(microseconds: -r.low.microseconds)
        } else {
            state = .ok
            offset = TimeSpan(microseconds: -smallest.microseconds)
        }
    }
}
