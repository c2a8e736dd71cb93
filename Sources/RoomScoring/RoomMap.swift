/// A site's rooms as unions of areas on a floor plan (metres), for scoring a locator against a
/// recording's ground truth: axis-aligned rectangles, open on a side without a bound, or polygons
/// as a site plan draws its rooms. A point in no room of its floor is not scored; where areas
/// overlap, the room listed first holds it.
package struct RoomMap: Sendable, Equatable {
    /// A corner of a polygon area.
    package struct Point: Sendable, Equatable {
        package var x, y: Double
        package init(_ x: Double, _ y: Double) { (self.x, self.y) = (x, y) }
    }

    /// A rectangle (a nil bound is open on that side; lower bounds inclusive, upper exclusive), or,
    /// with `corners`, the polygon through them in order (the bounds unused).
    package struct Area: Sendable, Equatable {
        package var xMin, xMax, yMin, yMax: Double?
        /// A polygon's corners in order, closed back to the first; empty for a rectangle.
        package var corners: [Point] = []

        package init(xMin: Double? = nil, xMax: Double? = nil, yMin: Double? = nil, yMax: Double? = nil) {
            (self.xMin, self.xMax, self.yMin, self.yMax) = (xMin, xMax, yMin, yMax)
        }

        /// A polygon area; at least three corners.
        package init(corners: [Point]) {
            precondition(corners.count >= 3, "a polygon has at least three corners")
            self.corners = corners
        }

        func contains(_ x: Double, _ y: Double) -> Bool {
            guard corners.isEmpty else {
                // Even-odd rule: a ray towards +x crosses the edges an odd number of times.
                var inside = false
                var j = corners.count - 1
                for i in corners.indices {
                    let (a, b) = (corners[i], corners[j])
                    if (a.y > y) != (b.y > y), x < a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y) { inside.toggle() }
                    j = i
                }
                return inside
            }
            return (xMin.map { x >= $0 } ?? true) && (xMax.map { x < $0 } ?? true) && (yMin.map { y >= $0 } ?? true)
                && (yMax.map { y < $0 } ?? true)
        }

        /// Euclidean distance from the point to the area (0 inside it).
        func distance(_ x: Double, _ y: Double) -> Double {
            guard corners.isEmpty else {
                if contains(x, y) { return 0 }
                var nearest = Double.infinity
                var j = corners.count - 1
                for i in corners.indices {
                    nearest = min(nearest, Self.distance(x, y, toSegment: corners[j], corners[i]))
                    j = i
                }
                return nearest
            }
            let dx = max((xMin ?? -.infinity) - x, 0, x - (xMax ?? .infinity))
            let dy = max((yMin ?? -.infinity) - y, 0, y - (yMax ?? .infinity))
            return (dx * dx + dy * dy).squareRoot()
        }

        static func distance(_ x: Double, _ y: Double, toSegment a: Point, _ b: Point) -> Double {
            let (dx, dy) = (b.x - a.x, b.y - a.y)
            let length = dx * dx + dy * dy
            let t = length > 0 ? max(0, min(1, ((x - a.x) * dx + (y - a.y) * dy) / length)) : 0
            let (px, py) = (a.x + t * dx - x, a.y + t * dy - y)
            return (px * px + py * py).squareRoot()
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
