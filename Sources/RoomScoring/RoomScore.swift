/// Scores one run of a room engine against the truth, a tick a second.
///
/// Feed it the ticks in time order (`add`); `summary` then counts:
/// - rooms right over all ticks, and over the ticks whose truth lies at least `clearance` from the
///   nearest boundary of its room;
/// - room changes made: consecutive named answers that differ (`none` and `unknown` are skipped,
///   so a gap does not count as a change);
/// - true changes: ticks where the true room differs from the previous tick's and the tag then
///   stays in the new room at least `minimumStay`; for each, the delay to the first tick that names
///   the new room while the tag is still in it, or a miss when none does;
/// - ticks answered `none` or `unknown`.
package struct RoomScore: Sendable {
    package struct Tick: Sendable, Equatable {
        /// Seconds; ticks of a run are expected a second apart.
        package var time: Double
        package var truth: String
        /// Distance from the truth position to the nearest boundary of its room (m).
        package var boundaryDistance: Double
        package var answer: RoomAnswer
        package init(time: Double, truth: String, boundaryDistance: Double, answer: RoomAnswer) {
            self.time = time
            self.truth = truth
            self.boundaryDistance = boundaryDistance
            self.answer = answer
        }
    }

    package let minimumStay: Double
    package let clearance: Double
    package private(set) var ticks: [Tick] = []

    package init(minimumStay: Double = 3, clearance: Double = 1) {
        self.minimumStay = minimumStay
        self.clearance = clearance
    }

    package mutating func add(_ tick: Tick) { ticks.append(tick) }

    package var summary: RoomScoreSummary {
        var s = RoomScoreSummary()
        var lastNamed: String?
        for t in ticks {
            s.ticks += 1
            if t.answer == .room(t.truth) { s.right += 1 }
            if t.boundaryDistance >= clearance {
                s.clearTicks += 1
                if t.answer == .room(t.truth) { s.clearRight += 1 }
            }
            switch t.answer {
            case .none, .unknown: s.unanswered += 1
            case .room(let name):
                if let lastNamed, lastNamed != name { s.changesMade += 1 }
                lastNamed = name
            }
        }
        var i = 1
        while i < ticks.count {
            defer { i += 1 }
            guard ticks[i].truth != ticks[i - 1].truth else { continue }
            let room = ticks[i].truth
            var end = i
            while end < ticks.count, ticks[end].truth == room { end += 1 }
            let leaves = end < ticks.count ? ticks[end].time : ticks[end - 1].time + 1
            guard leaves - ticks[i].time >= minimumStay else { continue }
            s.trueChanges += 1
            if let hit = (i..<end).first(where: { ticks[$0].answer == .room(room) }) {
                s.delays.append(ticks[hit].time - ticks[i].time)
            } else {
                s.missed += 1
            }
        }
        return s
    }
}
