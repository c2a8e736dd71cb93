import TestFixtures
import Testing

@testable import BeaconCore

/// The rooms a position gives the belief engine: each room as likely as its share, but none the
/// belief could not keep (it would add and forget it every tick, and never settle).
@Suite struct PositionEvidenceTests {
    static func evidence(store: Double) -> [RoomBelief.Evidence] {
        var track = LocatorTrack()
        let t = Fixtures.at(0)
        track.position.set(
            .init(
                floor: "1", x: 4, y: 2, radius: 1,
                rooms: [.init(room: "hall", probability: 1 - store), .init(room: "store", probability: store)]),
            at: t)
        let heard = [
            RoomBelief.Evidence(gateway: "a", place: .init(floor: "1", room: "hall"), signal: -60),
            RoomBelief.Evidence(gateway: "z", place: .init(floor: "2", room: "attic"), signal: -80),
        ]
        return track.positionEvidence(heard, at: t, RoomBelief.Model())
    }

    @Test func aRoomTheBeliefCouldNotKeepIsNoEvidence() throws {
        let m = RoomBelief.Model()
        // The least share kept, against the likeliest room's: forget · (capacity − 1) / (1 − stay).
        let least = m.forget * Double(m.capacity - 1) / (1 - m.stay)
        let kept = Self.evidence(store: least * 1.5)
        #expect(kept.map(\.place.room) == ["attic", "hall", "store"])
        // The likeliest room speaks with the floor's strongest signal, the other by its share.
        let hall = try #require(kept.first { $0.place.room == "hall" })
        let store = try #require(kept.first { $0.place.room == "store" })
        #expect(abs(hall.signal - (-60 + m.spread * Numerics.log(1 - least * 1.5))) < 1e-9)
        #expect(abs(store.signal - (-60 + m.spread * Numerics.log(least * 1.5))) < 1e-9)
        // Another floor's gateways keep their own evidence.
        #expect(kept.first?.signal == -80)
        let dropped = Self.evidence(store: least / 2)
        #expect(dropped.map(\.place.room) == ["attic", "hall"])
    }
}
