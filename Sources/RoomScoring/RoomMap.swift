/// A site's rooms as unions of axis-aligned rectangles on a floor plan (metres), for scoring a
/// locator against a recording's ground truth. The rooms of one floor are expected to tile the
/// plane (an open side, a nil bound, reaches to infinity), so a point lies in exactly one room.
package struct RoomMap: Sendable, Equatable {
    /// One rectangle; a nil bound is open on that side. Lower bounds are inclusive, upper exclusive.
    package struct Area: Sendable, Equatable {
        package var xMin, xMax, yMin, yMax: Double?
        package init(xMin: Double? = nil, xMax: Double? = nil, yMin: Double? = nil, yMax: Double? = nil) {
            (self.xMin, self.xMax, self.yMin, self.yMax) = (xMin, xMax, yMin, yMax)
        }

        func contains(_ x: Double, _ y: Double) -> Bool {
            (xMin.map { x >= $0 } ?? true) && (xMax.map { x < $0 } ?? true) && (yMin.map { y >= $0 } ?? true)
                && (yMax.map { y < $0 } ?? true)
        }

        /// Euclidean distance from the point to the rectangle (0 inside it).
        func distance(_ x: Double, _ y: Double) -> Double {
            let dx = max((xMin ?? -.infinity) - x, 0, x - (xMax ?? .infinity))
            let dy = max((yMin ?? -.infinity) - y, 0, y - (yMax ?? .infinity))
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    package struct Room: Sendable, Equatable {
        package var name: String
        package var floor: String
        package var areas: [Area]
        package init(name: String, floor: String, areas: [Area]) {
            self.name = name
            self.floor = floor
            self.areas = areas
        }
    }

    package var rooms: [Room]
    package init(rooms: [Room]) { self.rooms = rooms }

    /// The room holding the point on `floor` (the first listed, should areas overlap).
    package func room(atX x: Double, y: Double, floor: String) -> Room? {
        rooms.first { $0.floor == floor && $0.areas.contains { $0.contains(x, y) } }
    }

    /// How far the point is from the nearest boundary of the room it is in: the distance to the
    /// nearest area of another room on that floor (infinite on a floor with one room).
    package func boundaryDistance(x: Double, y: Double, floor: String) -> Double {
        guard let own = room(atX: x, y: y, floor: floor) else { return 0 }
        var nearest = Double.infinity
        for other in rooms where other.floor == floor && other.name != own.name {
            for area in other.areas { nearest = min(nearest, area.distance(x, y)) }
        }
        return nearest
    }
}
