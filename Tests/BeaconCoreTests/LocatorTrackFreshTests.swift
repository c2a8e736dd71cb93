import BeaconCore
import BeaconWire
import TestFixtures
import Testing
import Vocabulary

/// `LocatorTrack.fresh`: the readings that count at a tick, taken as one slice of the time-ordered
/// list. Checked against the rule written as a filter, over random lists, ticks and exit events.
@Suite struct LocatorTrackFreshTests {
    @Test func theSliceIsExactlyTheReadingsTheRuleKeeps() {
        var rng = SeededRandom(state: 12)
        for _ in 0..<5_000 {
            var stamp: Int64 = Int64(rng.next() % 5)
            var list: [LocatorTrack.Sample] = []
            for _ in 0..<Int(rng.next() % 12) {
                list.append(.init(timestamp: Timestamp(microseconds: stamp), distance: 1, floor: nil, room: nil))
                stamp += 1 + Int64(rng.next() % 4)
            }
            let t = Timestamp(microseconds: Int64(rng.next() % 50))
            let staleAfter = TimeSpan(microseconds: 1 + Int64(rng.next() % 20))
            let lost = rng.next() % 3 == 0 ? nil : Timestamp(microseconds: Int64(rng.next() % 50))
            let expected = list.filter { s in
                s.timestamp <= t && t - s.timestamp < staleAfter
                    && (lost.map { $0 > t || s.timestamp >= $0 } ?? true)
            }
            let slice = LocatorTrack.fresh(list, at: t, staleAfter: staleAfter, lost: lost)
            #expect(
                Array(slice) == expected,
                "t=\(t.microseconds) stale=\(staleAfter.microseconds) lost=\(String(describing: lost?.microseconds)) \(list.map(\.timestamp.microseconds))"
            )
        }
    }
}
