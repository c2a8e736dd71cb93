import BeaconCore
import BeaconWire
import TestFixtures
import Testing
import Vocabulary

/// What a track keeps of one gateway: the newest `history_window` readings at or before the last
/// decided tick and at most `aheadCapacity` after it, so a flood of readings cannot grow it.
@Suite struct LocatorTrackCapacityTests {
    static func sample(_ seconds: Int64) -> LocatorTrack.Sample {
        .init(timestamp: Timestamp(microseconds: seconds * 1_000_000), distance: 1, floor: nil, room: nil)
    }

    @Test func readingsAheadOfTheDecisionsAreAllKeptUpToTheirCapacity() {
        var track = LocatorTrack()
        let decided = Timestamp(microseconds: 0)
        for s in 1...Int64(LocatorTrack.aheadCapacity) {
            track.insert(Self.sample(s), gateway: "A", keep: 5, decided: decided)
        }
        #expect(track.readings(of: "A")?.count == LocatorTrack.aheadCapacity)
        // A flood stamped ahead: the oldest ahead go first, the count stays put.
        for s in 1_000...20_000 as ClosedRange<Int64> {
            track.insert(Self.sample(s), gateway: "A", keep: 5, decided: decided)
        }
        let kept = track.readings(of: "A")!
        #expect(kept.count == LocatorTrack.aheadCapacity)
        #expect(kept.first?.timestamp == Self.sample(20_001 - Int64(LocatorTrack.aheadCapacity)).timestamp)
    }

    @Test func readingsAtOrBeforeTheDecidedTickKeepOnlyTheHistoryWindow() {
        var track = LocatorTrack()
        for s in 1...40 as ClosedRange<Int64> { track.insert(Self.sample(s), gateway: "A", keep: 5, decided: nil) }
        #expect(track.readings(of: "A")?.count == 40)  // nothing decided yet: all of them count later
        // Ticks up to 30 s decided: of the readings up to it the newest 5 are all any later tick takes.
        let decided = Timestamp(microseconds: 30_000_000)
        track.insert(Self.sample(41), gateway: "A", keep: 5, decided: decided)
        #expect(track.readings(of: "A")!.map(\.timestamp) == (26...41).map { Self.sample($0).timestamp })
        // A flood of late readings, stamped before the decided tick, changes nothing kept.
        for s in -5_000...25 as ClosedRange<Int64> {
            track.insert(Self.sample(s), gateway: "A", keep: 5, decided: decided)
        }
        #expect(track.readings(of: "A")!.map(\.timestamp) == (26...41).map { Self.sample($0).timestamp })
    }
}
