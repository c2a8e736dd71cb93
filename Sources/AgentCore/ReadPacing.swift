import Vocabulary

/// When a live source reads again after a read that emptied it (`scanner.read_interval`).
///
/// Each wake-up of the reading thread costs far more than the reports it reads (docs/performance.md,
/// "What a wake-up costs"), so a busy adapter is left to queue its reports in the kernel, which
/// stamps each with its receive time, and a quiet one is read as each report arrives. `adaptive`
/// (the default) decides between the two from the arrival rate it observes; `fixed` always waits
/// its span (zero: never waits).
///
/// A value on an injected monotonic clock: the read loop tells it when a read emptied the source
/// and how many reports it read since the last time, and it answers how long to leave the source.
package struct ReadPacing: Sendable, Equatable {
    package enum Policy: Sendable, Equatable {
        case adaptive
        /// Waits this long after every read that emptied the source (`read_interval: 50ms`).
        case fixed(TimeSpan)

        /// `scanner.read_interval`: a span, or nil for `adaptive`.
        package init(readInterval: TimeSpan?) { self = readInterval.map(Policy.fixed) ?? .adaptive }
    }

    package let policy: Policy
    /// Reports a second, smoothed over about `smoothing`.
    package private(set) var rate = 0.0
    /// Whether the source counts as busy (its reads are batched).
    package private(set) var isBusy = false
    private var lastDrain: MonotonicInstant?

    /// Busy from this rate on: a wake-up per report would cost about 1 % of a core here.
    package static let busyRate = 100.0
    /// Quiet again below this rate (hysteresis, so a rate near the threshold does not flip each read).
    package static let quietRate = 50.0
    /// The longest a busy source is left to queue: the bound on the delay batching adds.
    package static let longestAdaptiveHold = TimeSpan.milliseconds(200)
    /// Reports a busy hold gathers at most: at high rates the hold ends when about this many are due,
    /// well inside what the socket's receive buffer holds over `longestAdaptiveHold`.
    package static let batchReports = 512.0
    /// How far back the rate looks.
    package static let smoothing = 0.5

    package init(_ policy: Policy = .adaptive) { self.policy = policy }

    /// The longest a report may wait to be read: the socket's buffer is sized for it, and the
    /// agent's timers run this far behind so a held report is in before a deadline it beat.
    package var longestHold: TimeSpan {
        switch policy {
        case .adaptive: Self.longestAdaptiveHold
        case .fixed(let span): span
        }
    }

    /// A read emptied the source at `now`, `reports` having been read since the previous time it
    /// did: how long to leave it before reading again (zero: wait for the next report and read it
    /// at once).
    package mutating func drained(reports: Int, at now: MonotonicInstant) -> TimeSpan {
        if case .fixed(let span) = policy { return span }
        if let last = lastDrain {
            let elapsed = now.seconds(since: last)
            if elapsed > 0 {
                let observed = Double(reports) / elapsed
                rate += (observed - rate) * min(1, elapsed / Self.smoothing)
            }
        }
        lastDrain = now
        if isBusy, rate < Self.quietRate {
            isBusy = false
        } else if !isBusy, rate >= Self.busyRate {
            isBusy = true
        }
        guard isBusy else { return .zero }
        let fill = TimeSpan(microseconds: Int64(Self.batchReports / rate * 1e6))
        return min(Self.longestAdaptiveHold, fill)
    }
}
