import RoomScoring
import Testing

/// Hand-made runs whose scores are worked out by hand.
@Suite struct RoomScoreTests {
    /// Ticks a second apart from t = 0: truth rooms, answers (nil = none, "?" = unknown), distances.
    static func score(_ truth: [String], _ answers: [String?], distances: [Double]? = nil) -> RoomScoreSummary {
        var score = RoomScore()
        for i in truth.indices {
            let answer: RoomAnswer = answers[i].map { $0 == "?" ? .unknown : .room($0) } ?? .none
            score.add(.init(time: Double(i), truth: truth[i], boundaryDistance: distances?[i] ?? 2, answer: answer))
        }
        return score.summary
    }

    @Test func aLateFollowerIsRightAfterItsDelayAndCountsOneChange() {
        let s = Self.score(
            ["A", "A", "B", "B", "B", "B", "B"],
            ["A", "A", "A", "A", "B", "B", "B"])
        #expect(s.ticks == 7)
        #expect(s.right == 5)
        #expect(s.changesMade == 1)
        #expect(s.trueChanges == 1)
        #expect(s.delays == [2])
        #expect(s.missed == 0)
        #expect(s.unanswered == 0)
    }

    @Test func aVisitShorterThanTheMinimumStayIsNoTrueChange() {
        // B for 2 s only, then back to A: no true change into B; the return to A (4 s) is one.
        let s = Self.score(["A", "B", "B", "A", "A", "A", "A"], ["A", "A", "A", "A", "A", "A", "A"])
        #expect(s.trueChanges == 1)
        #expect(s.delays == [0])
        #expect(s.changesMade == 0)
    }

    @Test func aRoomNamedOnlyAfterTheTagLeftIsMissed() {
        let s = Self.score(
            ["A", "B", "B", "B", "C", "C", "C"],
            ["A", "A", "A", "A", "B", "C", "C"])
        #expect(s.trueChanges == 2)
        #expect(s.missed == 1)
        #expect(s.delays == [1])
        #expect(s.changesMade == 2)
        #expect(s.wrong == 4)
    }

    @Test func noAnswerAndUnknownAreCountedAndBridgeNoChange() {
        let s = Self.score(["A", "A", "A", "A"], [nil, "A", "?", "A"])
        #expect(s.unanswered == 2)
        #expect(s.right == 2)
        #expect(s.wrong == 0)
        #expect(s.changesMade == 0)
    }

    @Test func onlyTicksClearOfABoundaryCountInTheClearFigure() {
        let s = Self.score(["A", "A", "A", "A"], ["A", "B", "B", "A"], distances: [1.5, 0.3, 1.0, 0.99])
        #expect(s.clearTicks == 2)
        #expect(s.clearRight == 1)
        #expect(s.changesMade == 2)
    }

    @Test func delaysMergeAndTheirP90IsTheNearestRank() {
        var s = RoomScoreSummary()
        var other = RoomScoreSummary()
        s.delays = [1, 2, 3, 4, 5]
        other.delays = [6, 7, 8, 9, 10]
        other.ticks = 3
        s.merge(other)
        #expect(s.ticks == 3)
        #expect(s.meanDelay == 5.5)
        #expect(s.p90Delay == 9)
    }
}
