/// A site drawn to scale (`locator.site_plan`): per floor its rooms as polygons, its walls, and
/// where each gateway stands, in metres on the site's own axes (docs/locator.md, "Positions on a
/// floor plan"). The locator places beacons on it (`PositionEstimator`) and names the room whose
/// polygon holds the position. Pure geometry: no file, no clock.
package struct SitePlan: Sendable, Equatable {
    /// A point on a floor, metres.
    package struct Point: Sendable, Equatable {
        package var x: Double
        package var y: Double
        package init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// A room: its outline, a simple polygon (closed implicitly, either winding).
    package struct Room: Sendable, Equatable {
        package var floor: String
        package var name: String
        package var outline: [Point]
        package init(floor: String, name: String, outline: [Point]) {
            self.floor = floor
            self.name = name
            self.outline = outline
        }

        /// Whether the point lies inside the outline (even-odd rule; a point on an edge may go either way).
        package func contains(_ p: Point) -> Bool {
            var inside = false
            var j = outline.count - 1
            for i in outline.indices {
                let (a, b) = (outline[i], outline[j])
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                j = i
            }
            return inside
        }

        /// Metres from the point to the outline (0 inside).
        package func distance(to p: Point) -> Double {
            if contains(p) { return 0 }
            var nearest = Double.infinity
            var j = outline.count - 1
            for i in outline.indices {
                nearest = min(nearest, SitePlan.distance(p, outline[j], outline[i]))
                j = i
            }
            return nearest
        }
    }

    /// A wall drawn on a floor: a polyline (drawn on the map; not part of the radio model).
    package struct Wall: Sendable, Equatable {
        package var floor: String
        package var points: [Point]
        package init(floor: String, points: [Point]) {
            self.floor = floor
            self.points = points
        }
    }

    /// A gateway at its place: `z` is its height above its floor.
    package struct Gateway: Sendable, Equatable {
        package var id: String
        package var floor: String
        package var room: String?
        package var position: SitePosition
        package init(id: String, floor: String, room: String?, position: SitePosition) {
            self.id = id
            self.floor = floor
            self.room = room
            self.position = position
        }
    }

    /// What the gateways published of one beacon held still at a point: a radio map's sample
    /// (docs/locator.md, "A surveyed radio map").
    package struct SurveyPoint: Sendable, Equatable {
        package var floor: String
        package var point: Point
        /// The surveyed beacon's measured power at 1 m, dBm.
        package var power: Double
        /// Per gateway id, its filtered RSSI there as it published it (without `locator.rssi_offset`), dBm.
        package var rssi: [String: Double]
        /// How many readings each value is the mean or median of: the point weighs as many.
        package var readings: Int
        /// `power` nil: an iBeacon's usual −59 dBm.
        package init(floor: String, point: Point, power: Double? = nil, rssi: [String: Double], readings: Int = 1) {
            self.floor = floor
            self.point = point
            self.power = power ?? LocatorTrack.defaultMeasuredPower
            self.rssi = rssi
            self.readings = readings
        }
    }

    package var gateways: [Gateway] = []
    package var rooms: [Room] = []
    package var walls: [Wall] = []
    /// The survey's points, in the file's order (none: positions from the path-loss model alone).
    package var survey: [SurveyPoint] = []
    /// The site's log-distance path-loss exponent, when the plan gives one; the locator's own fit
    /// (gateways hearing each other) takes precedence once it has fitted one.
    package var pathLossExponent: Double?

    package init() {}

    /// The floors in the order the plan names them (rooms first, then gateways).
    package var floors: [String] {
        var seen: [String] = []
        for f in rooms.map(\.floor) + gateways.map(\.floor) where !seen.contains(f) { seen.append(f) }
        return seen
    }

    package func gateway(_ id: String) -> Gateway? { gateways.first { $0.id == id } }

    /// The room whose polygon holds the point on `floor` (the first listed, should two overlap).
    package func room(at p: Point, floor: String) -> Room? {
        rooms.first { $0.floor == floor && $0.contains(p) }
    }

    /// The room holding the point, else the nearest room of the floor (a point in a wall or a doorway).
    package func nearestRoom(to p: Point, floor: String) -> Room? {
        if let r = room(at: p, floor: floor) { return r }
        return rooms.filter { $0.floor == floor }.min { $0.distance(to: p) < $1.distance(to: p) }
    }

    /// Metres from `p` to the segment a–b.
    static func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        let length = dx * dx + dy * dy
        let t = length > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length)) : 0
        let (ex, ey) = (p.x - a.x - t * dx, p.y - a.y - t * dy)
        return (ex * ex + ey * ey).squareRoot()
    }
}
