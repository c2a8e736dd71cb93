import RoomScoring
import Testing

@Suite struct RoomMapTests {
    /// Four rooms tiling the plane: a west and an east room above y = 2, a hall and a south room below.
    static let map = RoomMap(rooms: [
        .init(name: "west", floor: "0", areas: [.init(xMax: 3, yMin: 2)]),
        .init(name: "east", floor: "0", areas: [.init(xMin: 3, yMin: 2)]),
        .init(name: "hall", floor: "0", areas: [.init(xMax: 4, yMax: 2)]),
        .init(name: "south", floor: "0", areas: [.init(xMin: 4, yMax: 2)]),
    ])

    @Test func pointsFallInTheirRoomWithLowerBoundsInclusive() {
        #expect(Self.map.room(atX: 1, y: 5, floor: "0")?.name == "west")
        #expect(Self.map.room(atX: 3, y: 2, floor: "0")?.name == "east")
        #expect(Self.map.room(atX: 3.99, y: 1.99, floor: "0")?.name == "hall")
        #expect(Self.map.room(atX: 1, y: 5, floor: "1") == nil)
    }

    @Test func theBoundaryDistanceIsToTheNearestOtherRoom() {
        // In the west room at (1, 5): the east room is 2 m away, the hall 3 m.
        #expect(abs(Self.map.boundaryDistance(x: 1, y: 5, floor: "0") - 2) < 1e-9)
        // In the hall at (3.5, 1): the south room is 0.5 m away.
        #expect(abs(Self.map.boundaryDistance(x: 3.5, y: 1, floor: "0") - 0.5) < 1e-9)
        // In the east room at (5, 2.5): the south room's corner (4…, <2) is 0.5 m below.
        #expect(abs(Self.map.boundaryDistance(x: 5, y: 2.5, floor: "0") - 0.5) < 1e-9)
    }

    @Test func aTrackIsAtRestOnlyWhenItStayedWithinTheRadiusForTheWholeWindow() {
        let still = (0...30).map { TruthTrack.Sample(time: Double($0) / 3, x: 1 + 0.01 * Double($0 % 2), y: 1) }
        let track = TruthTrack(still)
        #expect(!track.isAtRest(at: 4))  // less than 5 s of track
        #expect(track.isAtRest(at: 8))
        var moving = still
        moving[20].x = 1.5  // t = 6.67
        #expect(!TruthTrack(moving).isAtRest(at: 8))
        #expect(!TruthTrack(moving).isAtRest(at: 11.5))
        #expect(TruthTrack(moving).isAtRest(at: 11.8))
        #expect(TruthTrack(moving).nearest(to: 6.6).x == 1.5)
    }

    @Test func missingPositionsAreInterpolatedInTimeAndTakeTheNearestAtEitherEnd() throws {
        let track = try #require(
            TruthTrack(
                times: [0, 1, 2, 3, 5, 6],
                positions: [nil, (1, 1, "0"), nil, (4, 1, "0"), nil, nil]))
        #expect(track.samples.map(\.x) == [1, 1, 2.5, 4, 4, 4])
        #expect(track.samples.map(\.y) == [1, 1, 1, 1, 1, 1])
        #expect(track.samples.map(\.floor) == ["0", "0", "0", "0", "0", "0"])
        // Unevenly spaced: a third of the way in time is a third of the way.
        let uneven = try #require(TruthTrack(times: [0, 1, 3], positions: [(0, 0, nil), nil, (3, 6, nil)]))
        #expect(uneven.samples[1].x == 1 && uneven.samples[1].y == 2)
        #expect(TruthTrack(times: [0, 1], positions: [nil, nil]) == nil)
    }

    @Test func aChangeOfFloorIsNoRest() {
        let still = (0...40).map { TruthTrack.Sample(time: Double($0) / 3, x: 1, y: 1, floor: $0 < 20 ? "0" : "1") }
        #expect(!TruthTrack(still).isAtRest(at: 8))
        #expect(TruthTrack(still).isAtRest(at: 12))
    }

    /// An L-shaped living room round a square kitchen in its corner, as a site plan draws them.
    static let lShaped = RoomMap(rooms: [
        .init(
            name: "living", floor: "0",
            areas: [.init(corners: [.init(0, 0), .init(6, 0), .init(6, 3), .init(3, 3), .init(3, 6), .init(0, 6)])]),
        .init(
            name: "kitchen", floor: "0", areas: [.init(corners: [.init(3, 3), .init(6, 3), .init(6, 6), .init(3, 6)])]),
    ])

    @Test func aPointLiesInThePolygonAroundIt() {
        #expect(Self.lShaped.room(atX: 1, y: 5, floor: "0")?.name == "living")
        #expect(Self.lShaped.room(atX: 5, y: 1, floor: "0")?.name == "living")
        #expect(Self.lShaped.room(atX: 4, y: 4, floor: "0")?.name == "kitchen")
        // Outside the L and the kitchen: no room, so the tick is not scored.
        #expect(Self.lShaped.room(atX: 7, y: 1, floor: "0") == nil)
        #expect(Self.lShaped.room(atX: -1, y: 1, floor: "0") == nil)
    }

    @Test func theBoundaryDistanceIsToTheNearestEdgeOfAnotherRoomsPolygon() {
        // In the living room at (1, 5): the kitchen's west wall (x = 3) is 2 m away.
        #expect(abs(Self.lShaped.boundaryDistance(x: 1, y: 5, floor: "0") - 2) < 1e-9)
        // At (1, 1): the kitchen's nearest corner (3, 3) is √8 m away.
        #expect(abs(Self.lShaped.boundaryDistance(x: 1, y: 1, floor: "0") - 8.0.squareRoot()) < 1e-9)
        // In the kitchen at (4, 5): the living room's edge x = 3 is 1 m away.
        #expect(abs(Self.lShaped.boundaryDistance(x: 4, y: 5, floor: "0") - 1) < 1e-9)
    }

    @Test func rectanglesAndPolygonsMix() {
        let map = RoomMap(rooms: [
            .init(name: "hall", floor: "0", areas: [.init(xMax: 2)]),
            .init(name: "room", floor: "0", areas: [.init(corners: [.init(2, 0), .init(5, 0), .init(5, 4)])]),
        ])
        #expect(map.room(atX: 4, y: 1, floor: "0")?.name == "room")
        #expect(map.room(atX: 3, y: 3, floor: "0") == nil)  // above the triangle's slope
        #expect(abs(map.boundaryDistance(x: 4, y: 1, floor: "0") - 2) < 1e-9)
    }
}
