import BeaconWire
import Vocabulary

/// Paces a deferred ranging tick (GatewayPipeline's Pipeline+DeferredRanging) over a quarter of the
/// ranging interval, on the pipeline's clock, in slices of at most `slice` results.
///
/// Why: the unwritten-QoS 0 window keeps libmosquitto's queue short, but a message written is not
/// a message the broker has routed. Without pacing, a tick of 600 proximity messages reached a
/// subscriber over 3–20 ms (issue #18, the latency probe), and an enter published during it
/// waited in the broker behind what was already written. Spread out, the broker routes each slice
/// before the next, so an enter waits for a slice at most.
package struct TickSpread: Sendable, Equatable {
    /// The pipeline's `deferredTicks` this spread paces.
    package let tick: Int
    package let start: Timestamp
    package let total: Int
    package let duration: TimeSpan
    package let slice: Int
    /// Results composed so far.
    package private(set) var released = 0

    package init(tick: Int, start: Timestamp, total: Int, interval: TimeSpan, slice: Int) {
        self.tick = tick
        self.start = start
        self.total = max(total, 1)
        duration = TimeSpan(microseconds: max(interval.microseconds / 4, 1))
        self.slice = max(slice, 1)
    }

    /// Results that may be composed at `now`: the first slice at once, then in proportion to the
    /// time since `start`, all of them by `start + duration`.
    package func allowance(at now: Timestamp) -> Int {
        let elapsed = min(max(now - start, .zero), duration)
        let due = slice + Int(Int64(total) * elapsed.microseconds / duration.microseconds)
        return max(0, min(total, due) - released)
    }

    package mutating func release(_ n: Int) { released += n }

    /// When the next whole slice (or the rest, if smaller) is allowed; nil when all are released.
    package var nextDue: Timestamp? {
        guard released < total else { return nil }
        // allowance ≥ min(slice, rest) ⇔ total · elapsed / duration ≥ released + min(slice, rest) − slice
        let need = Int64(released + min(slice, total - released) - slice)
        guard need > 0 else { return start }
        return start + TimeSpan(microseconds: (need * duration.microseconds + Int64(total) - 1) / Int64(total))
    }
}
