import Testing

@testable import BeaconCore

@Suite struct RoomFingerprintsTests {
    static let west = RoomBelief.Place(floor: "0", room: "west")
    static let east = RoomBelief.Place(floor: "0", room: "east")

    /// A teach-in of `seconds` seconds in each room: per second, each gateway's signal there (nil:
    /// not heard) and a ±`wobble` dB alternation.
    static func samples(
        _ levels: [RoomBelief.Place: [String: Double?]], seconds: Int = 20, wobble: Double = 2
    ) -> [RoomFingerprints.Sample] {
        [west, east].flatMap { place in
            (0..<seconds).map { n in
                let signals = (levels[place] ?? [:]).compactMapValues {
                    $0.map { $0 + (n % 2 == 0 ? wobble : -wobble) }
                }
                return RoomFingerprints.Sample(place: place, signals: signals)
            }
        }
    }

    static func probability(
        _ shares: [(place: RoomBelief.Place, probability: Double)], _ place: RoomBelief.Place
    )
        -> Double
    {
        shares.first { $0.place == place }?.probability ?? 0
    }

    @Test func aRoomsLevelIsTheMeanAndSpreadOfWhatItsGatewaysPublishedThere() {
        let f = RoomFingerprints.fit(
            Self.samples([Self.west: ["a": -60, "b": nil], Self.east: ["a": -70, "b": -65]]))
        let west = f.rooms.first { $0.place == Self.west }!
        #expect(west.levels["a"] == .init(mean: -60, spread: 2, heard: 21.0 / 22))
        // Never heard in the west room: all its readings' mean and spread, and a share of 1 / 22.
        #expect(west.levels["b"] == .init(mean: -65, spread: 2, heard: 1.0 / 22))
        let east = f.rooms.first { $0.place == Self.east }!
        #expect(east.levels["b"]?.heard == 21.0 / 22)
        #expect(f.gateways(on: "0")?.sorted() == ["a", "b"])
    }

    @Test func theSpreadIsNeverBelowTheLeast() {
        let f = RoomFingerprints.fit(Self.samples([Self.west: ["a": -60], Self.east: ["a": -70]], wobble: 0))
        #expect(f.rooms.allSatisfy { $0.levels["a"]?.spread == RoomFingerprints.least })
    }

    /// Gateway "a" stands in the west room by the wall: it hears the east room only 5 dB less
    /// well, and better than east's own gateway "b" does. The strongest gateway's room would be
    /// west; the fingerprints know what "a" and "b" publish on either side.
    @Test func aGatewayByAWallDoesNotClaimTheRoomBehindIt() {
        let f = RoomFingerprints.fit(
            Self.samples([Self.west: ["a": -58, "b": -80], Self.east: ["a": -63, "b": -70]]))
        let shares = f.shares([("a", -63), ("b", -71)], on: "0")
        #expect(Self.probability(shares, Self.east) > 0.95, "\(shares)")
        #expect(Self.probability(shares, Self.west) + Self.probability(shares, Self.east) == 1)
    }

    /// "c" hears the beacon in the east room only: its silence speaks for the west room, unless it
    /// is offline, when it says nothing.
    @Test func aSilentGatewayCountsUnlessItIsOffline() {
        let f = RoomFingerprints.fit(
            Self.samples([Self.west: ["a": -65, "c": nil], Self.east: ["a": -65, "c": -75]]))
        let silent = f.shares([("a", -65)], on: "0")
        #expect(Self.probability(silent, Self.west) > 0.9, "\(silent)")
        let offline = f.shares([("a", -65)], on: "0", offline: ["c"])
        #expect(abs(Self.probability(offline, Self.west) - 0.5) < 1e-9, "\(offline)")
    }

    /// One gateway 40 dB off a room's level counts as `reach` spreads off: three gateways that
    /// agree on the room still carry it.
    @Test func oneWildReadingDoesNotRuleARoomOut() {
        let f = RoomFingerprints.fit(
            Self.samples([
                Self.west: ["a": -60, "b": -60, "c": -60, "d": -60],
                Self.east: ["a": -72, "b": -72, "c": -72, "d": -60],
            ]))
        let shares = f.shares([("a", -60), ("b", -60), ("c", -60), ("d", -20)], on: "0")
        #expect(Self.probability(shares, Self.west) > 0.9, "\(shares)")
    }

    @Test func noGatewayWithALevelHearingTheBeaconIsNoAnswer() {
        let f = RoomFingerprints.fit(Self.samples([Self.west: ["a": -60], Self.east: ["a": -70]]))
        #expect(f.shares([("z", -50)], on: "0").isEmpty)
        #expect(f.shares([("a", -60)], on: "9").isEmpty)
        #expect(RoomFingerprints(rooms: []).shares([("a", -60)], on: "0").isEmpty)
    }

    /// A configured fingerprint may leave gateways out: a room weighs only the gateways it has a
    /// level for, heard or silent, and rooms of other floors weigh nothing.
    @Test func aRoomWeighsOnlyTheGatewaysItHasALevelFor() {
        let a = RoomFingerprints.Level(mean: -60, spread: 4, heard: 0.9)
        let b = RoomFingerprints.Level(mean: -70, spread: 5, heard: 0.8)
        let c = RoomFingerprints.Level(mean: -75, spread: 3, heard: 0.6)
        let f = RoomFingerprints(rooms: [
            .init(place: Self.west, levels: ["a": a, "b": b]),
            .init(place: Self.east, levels: ["a": a, "c": c]),
            .init(place: .init(floor: "1", room: "attic"), levels: ["a": a, "d": c]),
        ])
        func heard(_ l: RoomFingerprints.Level, _ s: Double) -> Double {
            Numerics.log(l.heard / l.spread) - (s - l.mean) * (s - l.mean) / (2 * l.spread * l.spread)
        }
        // b heard at -66, c silent, d (upstairs) heard and ignored.
        let west = heard(a, -62) + heard(b, -66)
        let east = heard(a, -62) + Numerics.log(1 - c.heard)
        let shares = f.shares([("a", -62), ("b", -66), ("d", -50)], on: "0")
        #expect(shares.map(\.place) == [Self.west, Self.east])
        #expect(abs(Self.probability(shares, Self.west) - 1 / (1 + Numerics.exp(east - west))) < 1e-12, "\(shares)")
        // c offline: east weighs a alone.
        let offline = f.shares([("a", -62), ("b", -66)], on: "0", offline: ["c"])
        let alone = heard(a, -62)
        #expect(abs(Self.probability(offline, Self.west) - 1 / (1 + Numerics.exp(alone - west))) < 1e-12, "\(offline)")
    }

    /// The gateways a floor's fingerprints weigh are the ones a first room waits for: those with a
    /// level in one of its rooms, not those of another floor's.
    @Test func aFloorsGatewaysAreThoseWithALevelThere() {
        let level = RoomFingerprints.Level(mean: -60, spread: 4, heard: 0.9)
        let f = RoomFingerprints(rooms: [
            .init(place: Self.west, levels: ["a": level, "b": level]),
            .init(place: Self.east, levels: ["a": level, "c": level]),
            .init(place: .init(floor: "1", room: "attic"), levels: ["d": level]),
        ])
        #expect(f.gateways(on: "0")?.sorted() == ["a", "b", "c"])
        #expect(f.gateways(on: "1") == ["d"])
        #expect(f.gateways(on: "9") == nil)
    }

    /// The taught beacon's measured power is the mean of its samples' (to 0.1 dB); none when the
    /// beacon advertised none.
    @Test func aRoomKeepsThePowerOfTheBeaconThatTaughtIt() {
        let f = RoomFingerprints.fit([
            .init(place: Self.west, signals: ["a": -60], power: -59),
            .init(place: Self.west, signals: ["a": -61], power: -58),
            .init(place: Self.east, signals: ["a": -70]),
        ])
        #expect(f.rooms.map(\.power) == [-58.5, nil])
        // Equal to itself, with a room of unknown power (a reloaded configuration is no change).
        #expect(RoomFingerprints(rooms: f.rooms) == f)
    }

    /// A beacon 8 dB weaker than the taught one (−67 against −59 at 1 m) is weighed as if it had
    /// the taught one's power; unknown on either side, its readings are taken as they are.
    @Test func aBeaconsPowerShiftsItsSignalsToTheTaughtBeacons() {
        var f = RoomFingerprints.fit(
            Self.samples([Self.west: ["a": -58, "b": -80], Self.east: ["a": -66, "b": -70]]).map {
                var s = $0
                s.power = -59
                return s
            })
        let taught = f.shares([("a", -66), ("b", -70)], on: "0")
        let weaker = f.shares([("a", -74), ("b", -78)], on: "0", power: -67)
        for (t, w) in zip(taught, weaker) {
            #expect(t.place == w.place)
            #expect(abs(t.probability - w.probability) < 1e-12)
        }
        #expect(Self.probability(weaker, Self.east) > 0.95)
        // Without the beacon's power, or without the taught one's, no shift.
        let unshifted = f.shares([("a", -74), ("b", -78)], on: "0")
        #expect(Self.probability(unshifted, Self.east) < Self.probability(weaker, Self.east) - 0.1, "\(unshifted)")
        f = RoomFingerprints(rooms: f.rooms.map { .init(place: $0.place, levels: $0.levels) })
        let untaught = f.shares([("a", -74), ("b", -78)], on: "0", power: -67)
        #expect(zip(untaught, unshifted).allSatisfy { abs($0.probability - $1.probability) < 1e-12 })
    }
}
