import BeaconCore
import Vocabulary

/// A locator's ticks, at whole multiples of `locator.interval`, and the readings' times they start
/// from: the last tick decided, and the newest and the oldest reading.
package struct LocatorTimeline: Sendable {
    /// The last tick decided; nil before the first.
    private(set) var lastTick: Timestamp?
    /// The newest reading's timestamp: the clock of a locator that follows the messages (replays).
    package private(set) var newestReading: Timestamp?
    /// The oldest reading before the first decided tick: deciding starts at the tick after it, so
    /// the first locations do not depend on when this locator started.
    private var oldestReading: Timestamp?

    /// A reading stamped `t` was taken.
    mutating func read(_ t: Timestamp) {
        if newestReading.map({ t > $0 }) ?? true { newestReading = t }
        if lastTick == nil, oldestReading.map({ t < $0 }) ?? true { oldestReading = t }
    }

    /// Tick `t` was decided.
    mutating func decided(_ t: Timestamp) { lastTick = t }

    /// The first tick not decided yet on a grid of `step` µs: after the last decided one, or the
    /// first after the oldest reading; nil before any.
    func nextTick(step: Int64) -> Timestamp? {
        lastTick.map { $0 + TimeSpan(microseconds: step) }
            ?? oldestReading.map { Timestamp(microseconds: Self.floorTick($0.microseconds - 1, step) + step) }
    }

    /// Every time held moves by `delta`, the last decided tick to the grid of `step` µs.
    mutating func shift(by delta: TimeSpan, step: Int64) {
        lastTick = lastTick.map { Timestamp(microseconds: Self.floorTick(($0 + delta).microseconds, step)) }
        newestReading = newestReading.map { $0 + delta }
        oldestReading = oldestReading.map { $0 + delta }
    }

    /// `us` rounded down to a whole multiple of `step`.
    static func floorTick(_ us: Int64, _ step: Int64) -> Int64 { us - ((us % step) + step) % step }
}
