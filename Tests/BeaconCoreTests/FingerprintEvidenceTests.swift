import Testing

@testable import BeaconCore

/// The rooms fingerprints give the belief engine: on the strongest gateway's floor, each room as
/// likely as its fingerprint explains the signals; other floors keep their gateways' evidence.
@Suite struct FingerprintEvidenceTests {
    static let hall = RoomBelief.Place(floor: "1", room: "hall")
    static let store = RoomBelief.Place(floor: "1", room: "store")
    /// Gateway "a" stands in the hall by the store's wall, "b" in the store: in the store "a"
    /// still hears more than "b".
    static let fingerprints = RoomFingerprints(rooms: [
        .init(
            place: hall,
            levels: ["a": .init(mean: -55, spread: 3, heard: 0.99), "b": .init(mean: -80, spread: 3, heard: 0.9)]),
        .init(
            place: store,
            levels: ["a": .init(mean: -62, spread: 3, heard: 0.99), "b": .init(mean: -68, spread: 3, heard: 0.99)]),
    ])

    @Test func theFloorsRoomsAreWeighedByTheirFingerprints() throws {
        let heard = [
            RoomBelief.Evidence(gateway: "a", place: Self.hall, signal: -62),
            RoomBelief.Evidence(gateway: "b", place: Self.store, signal: -68),
            RoomBelief.Evidence(gateway: "z", place: .init(floor: "2", room: "attic"), signal: -85),
        ]
        let m = RoomBelief.Model()
        // "a" with a locator offset of +3: what it published, −65, is what the fingerprints read.
        let published = [("a", -65.0), ("b", -68), ("z", -85)].map { (gateway: $0.0, signal: $0.1) }
        let out = LocatorTrack.fingerprintEvidence(heard, published: published, Self.fingerprints, offline: [], m)
        #expect(out.first == heard[2])
        let store = try #require(out.first { $0.place == Self.store })
        // The store explains both signals: it speaks with the floor's strongest signal, nearly.
        #expect(store.gateway == LocatorTrack.planGateway)
        #expect(store.signal > -62.01 && store.signal <= -62, "\(out)")
        // Read with the offset, −62 would be the hall's level less than the store's.
        let hall = out.first { $0.place == Self.hall }
        #expect(hall.map { $0.signal < store.signal - 10 } ?? true, "\(out)")
    }

    @Test func aFloorWithoutFingerprintsKeepsItsGatewaysEvidence() {
        let heard = [RoomBelief.Evidence(gateway: "z", place: .init(floor: "2", room: "attic"), signal: -60)]
        let published = [(gateway: "z", signal: -60.0)]
        #expect(
            LocatorTrack.fingerprintEvidence(
                heard, published: published, Self.fingerprints, offline: [], RoomBelief.Model()) == heard)
        #expect(
            LocatorTrack.fingerprintEvidence([], published: [], Self.fingerprints, offline: [], RoomBelief.Model())
                .isEmpty)
    }
}
