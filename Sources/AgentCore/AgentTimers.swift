/// The agent's periodic deadlines on the monotonic clock: the pipeline's advance (ranging ticks,
/// exit timeouts) and the stats message. A wall-clock step moves neither.
import Vocabulary

package struct AgentTimers: Sendable, Equatable {
    package private(set) var nextAdvance: MonotonicInstant
    /// nil while stats are off (`mqtt.stats_interval: 0`).
    package private(set) var nextStats: MonotonicInstant?

    /// The first stats go out this soon after start (or the interval, if shorter), so a gateway's
    /// health — and Home Assistant's diagnostic sensors — have values within seconds, not a minute.
    package static let firstStats = 5.0

    package init(now: MonotonicInstant, statsInterval: Double) {
        nextAdvance = now
        nextStats = Self.firstStats(after: now, interval: statsInterval)
    }

    /// True when the advance is due at `now`; the next one follows `interval` after the previous
    /// deadline (so ticks keep their pace), but never sooner than a tenth of it from now.
    package mutating func advanceIsDue(at now: MonotonicInstant, interval: Double) -> Bool {
        guard now >= nextAdvance else { return false }
        let interval = max(interval, 0.01)
        nextAdvance = max(nextAdvance.adding(seconds: interval), now.adding(seconds: interval / 10))
        return true
    }

    /// True when stats are due at `now`; the next ones follow `interval` (at least 1 s) from now.
    /// An interval of 0 is off: never due. A reload that turns them on (or off) takes effect at the
    /// next call: the first stats then follow as they do at start.
    package mutating func statsAreDue(at now: MonotonicInstant, interval: Double) -> Bool {
        guard let due = nextStats, interval > 0 else {
            nextStats = Self.firstStats(after: now, interval: interval)
            return false
        }
        guard now >= due else { return false }
        nextStats = now.adding(seconds: max(interval, 1))
        return true
    }

    /// The pipeline advances at once (after the restore).
    package mutating func advanceNow(_ now: MonotonicInstant) { nextAdvance = now }

    private static func firstStats(after now: MonotonicInstant, interval: Double) -> MonotonicInstant? {
        interval > 0 ? now.adding(seconds: min(interval, firstStats)) : nil
    }
}
