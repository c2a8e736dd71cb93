/// The counts of `RoomScore` for one run, or merged over several.
package struct RoomScoreSummary: Sendable, Equatable {
    package var ticks = 0
    package var right = 0
    /// Ticks at least the clearance from a boundary, and how many of them were right.
    package var clearTicks = 0
    package var clearRight = 0
    package var changesMade = 0
    package var trueChanges = 0
    /// Seconds from each true change found to the first tick naming the new room.
    package var delays: [Double] = []
    package var missed = 0
    /// Ticks answered `none` or `unknown`.
    package var unanswered = 0

    package init() {}

    package mutating func merge(_ other: RoomScoreSummary) {
        ticks += other.ticks
        right += other.right
        clearTicks += other.clearTicks
        clearRight += other.clearRight
        changesMade += other.changesMade
        trueChanges += other.trueChanges
        delays += other.delays
        missed += other.missed
        unanswered += other.unanswered
    }

    /// Per cent of the ticks that were right (nan without ticks).
    package var rightPercent: Double { Self.percent(right, of: ticks) }
    package var clearRightPercent: Double { Self.percent(clearRight, of: clearTicks) }
    package var unansweredPercent: Double { Self.percent(unanswered, of: ticks) }
    /// Ticks that named a room, the wrong one.
    package var wrong: Int { ticks - right - unanswered }
    package var wrongPercent: Double { Self.percent(wrong, of: ticks) }

    package var meanDelay: Double { delays.isEmpty ? .nan : delays.reduce(0, +) / Double(delays.count) }

    /// The 90th percentile delay (nearest rank; nan without delays).
    package var p90Delay: Double {
        guard !delays.isEmpty else { return .nan }
        let sorted = delays.sorted()
        let rank = Int((0.9 * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count, rank) - 1)]
    }

    static func percent(_ part: Int, of whole: Int) -> Double {
        whole == 0 ? .nan : Double(part) * 100 / Double(whole)
    }
}
