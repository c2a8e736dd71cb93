import Vocabulary

/// When the pipeline advances (ranging ticks, exit timeouts) and how a ranging tick's results are
/// let out: not in the turn that ranged them, but composed slice by slice as the expendable lane
/// asks for more, paced over a quarter of `ranging.interval` (`TickSpread`), so an enter heard
/// meanwhile goes out ahead of the rest. Deadlines are on the monotonic clock; a tick's pace is on
/// the pipeline's timeline.
struct RangingPacer: Sendable {
    private(set) var nextAdvance: MonotonicInstant
    /// The deferred tick being let out, if any.
    private var spread: TickSpread?

    init(now: MonotonicInstant) { nextAdvance = now }

    /// True when the advance is due at `now`; the next one follows `interval` after the previous
    /// deadline (so ticks keep their pace), but never sooner than a tenth of it from now.
    mutating func advanceIsDue(at now: MonotonicInstant, interval: TimeSpan) -> Bool {
        guard now >= nextAdvance else { return false }
        let interval = max(interval, .milliseconds(10))
        nextAdvance = max(nextAdvance + interval, now + TimeSpan(microseconds: interval.microseconds / 10))
        return true
    }

    /// The pipeline advances at once (after the restore).
    mutating func advanceNow(_ now: MonotonicInstant) { nextAdvance = now }

    /// How many of tick `tick`'s `waiting` results to compose at `time` (nil: none now): what the
    /// tick's pace allows, in whole slices, while connected and the expendable lane has `room`.
    mutating func slice(
        of waiting: Int, tick: Int, at time: Timestamp?, interval: TimeSpan, room: Int, connected: Bool
    ) -> Int? {
        guard waiting > 0, let time else {
            spread = nil
            return nil
        }
        if spread?.tick != tick {
            spread = TickSpread(
                tick: tick, start: time, total: waiting, interval: interval, slice: DeliveryPolicy.unwrittenWindow)
        }
        let whole = Self.wholeSlice(of: waiting)
        guard connected, room >= whole else { return nil }
        let n = min(room, spread!.allowance(at: time), waiting)
        guard n >= whole else { return nil }
        spread!.release(n)
        return n
    }

    /// How far ahead of `time`, on the pipeline's timeline, the next slice of `waiting` results is
    /// due. Nil also while a slice is allowed but the expendable window is full: an
    /// acknowledgement wakes the loop then, not the clock.
    func nextSlice(of waiting: Int, at time: Timestamp?) -> TimeSpan? {
        guard waiting > 0, let spread, let due = spread.nextDue, let time,
            spread.allowance(at: time) < Self.wholeSlice(of: waiting)
        else { return nil }
        return max(due - time, .zero)
    }

    /// The least a deferred tick's results are composed in: a whole slice (the unwritten window),
    /// or what is left of the tick. Each acknowledgement of a slice's messages is a turn of its
    /// own, and composing one result per turn cost a call through the pipeline each (callgrind:
    /// about 30 instructions a report at 3,000 reports/s); `slice` and `nextSlice` agree on it, so
    /// the loop wakes exactly when a slice may go.
    private static func wholeSlice(of waiting: Int) -> Int { min(DeliveryPolicy.unwrittenWindow, waiting) }
}
