/// A campus floor plan made from a few numbers, for the campus benchmark and its tests: `floors`
/// storeys, each with `gatewaysPerFloor` rooms on a square grid `roomPitch` metres apart and one
/// gateway in the middle of each room, and `beaconsPerGateway` beacons per room that rest in a room
/// (somewhere within 2 m of its gateway) and walk to a neighbouring room, now and then up or down
/// the stairs to the same room of the next floor. One seed is one campus.
///
/// Gateways are `f<floor>-g<n>` in room `r<n>` on floor `<floor>` (numbers zero-padded, so they
/// sort); beacon minors are 1…N, beacon i starting in room i mod rooms, so every room starts
/// with the same number of beacons.
package struct FloorPlanGenerator: Sendable, Equatable {
    package var floors = 2
    package var gatewaysPerFloor = 3
    package var beaconsPerGateway = 2
    package var seed: UInt64 = 1
    /// Seconds of walking generated (the plan's duration is at least this).
    package var duration: Double = 300
    package var roomPitch: Double = 10
    /// A rest in a room lasts between these, seconds.
    package var dwell: ClosedRange<Double> = 20...60
    /// Seconds from one room to the next.
    package var walk: Double = 8
    /// Share of moves that take the stairs (when there is another floor).
    package var stairs: Double = 0.1
    /// Weaker than a phone's radio, so a beacon is heard in its own and the next rooms, not the whole floor.
    package var sensitivityDBm: Double = -90
    /// Once a second, a common asset-tag setting.
    package var advertInterval: Double = 1

    package init() {}

    package var rooms: Int { floors * gatewaysPerFloor }
    package var beacons: Int { rooms * beaconsPerGateway }
    /// Rooms per row of a floor's grid.
    package var columns: Int { max(1, Int(Double(gatewaysPerFloor).squareRoot().rounded(.up))) }

    /// Why these numbers make no plan (minors are 16 bits), or nil.
    package var problem: String? {
        if floors < 1 || gatewaysPerFloor < 1 || beaconsPerGateway < 1 {
            return "floors, gateways and beacons must be ≥ 1"
        }
        if beacons > 65_535 { return "\(beacons) beacons: at most 65,535 (16-bit minors)" }
        if dwell.lowerBound <= 0 || walk <= 0 || duration <= 0 { return "dwell, walk and duration must be > 0" }
        return nil
    }

    package func gatewayID(floor: Int, room: Int) -> String {
        "f\(Self.padded(floor + 1, to: floors))-g\(Self.padded(room + 1, to: gatewaysPerFloor))"
    }

    package func plan() -> FloorPlan {
        var plan = FloorPlan()
        plan.seed = seed
        plan.sensitivityDBm = sensitivityDBm
        plan.advertInterval = advertInterval
        for f in 0..<floors {
            for r in 0..<gatewaysPerFloor {
                let (x, y) = centre(r)
                plan.gateways.append(
                    FloorPlan.Gateway(
                        id: gatewayID(floor: f, room: r), floor: String(f + 1),
                        room: "r\(Self.padded(r + 1, to: gatewaysPerFloor))", x: x, y: y))
            }
        }
        for b in 0..<beacons {
            let minor = UInt16(b + 1)
            var random = SplitMix64(keys: seed, UInt64(minor))
            var room = b % rooms
            var t = 0.0
            var spot = place(room, &random)
            plan.waypoints.append(spot.at(0, minor))
            while t < duration {
                t = Self.tenth(t + Double.random(in: dwell, using: &random))
                plan.waypoints.append(spot.at(t, minor))
                room = next(after: room, &random)
                spot = place(room, &random)
                t = Self.tenth(t + walk)
                plan.waypoints.append(spot.at(t, minor))
            }
        }
        return plan
    }

    /// A spot in a room: its floor and a point within 2 m of its gateway, to 0.1 m.
    struct Spot {
        var floor: Int
        var x: Double
        var y: Double
        func at(_ t: Double, _ minor: UInt16) -> FloorPlan.Waypoint {
            FloorPlan.Waypoint(minor: minor, at: t, x: x, y: y, floor: String(floor + 1))
        }
    }

    private func place(_ room: Int, _ random: inout SplitMix64) -> Spot {
        let (x, y) = centre(room % gatewaysPerFloor)
        return Spot(
            floor: room / gatewaysPerFloor, x: Self.tenth(x + Double.random(in: -2...2, using: &random)),
            y: Self.tenth(y + Double.random(in: -2...2, using: &random)))
    }

    /// Where a beacon in `room` (numbered across floors) goes next: the same room a floor up or
    /// down (share `stairs`), else a neighbour on the grid; nowhere else to go, it stays.
    func next(after room: Int, _ random: inout SplitMix64) -> Int {
        let floor = room / gatewaysPerFloor
        let r = room % gatewaysPerFloor
        if floors > 1, Double.random(in: 0..<1, using: &random) < stairs {
            let up = floor == 0 || (floor < floors - 1 && Bool.random(using: &random))
            return (floor + (up ? 1 : -1)) * gatewaysPerFloor + r
        }
        let c = columns
        var neighbours: [Int] = []
        if r % c > 0 { neighbours.append(r - 1) }
        if r % c < c - 1, r + 1 < gatewaysPerFloor { neighbours.append(r + 1) }
        if r >= c { neighbours.append(r - c) }
        if r + c < gatewaysPerFloor { neighbours.append(r + c) }
        guard let pick = neighbours.randomElement(using: &random) else { return room }
        return floor * gatewaysPerFloor + pick
    }

    /// Room `r`'s gateway on its floor's grid.
    func centre(_ r: Int) -> (x: Double, y: Double) {
        (Double(r % columns) * roomPitch, Double(r / columns) * roomPitch)
    }

    /// To a tenth (of a metre or a second): short in the file, and read back to the same Double.
    static func tenth(_ v: Double) -> Double { (v * 10).rounded() / 10 }

    static func padded(_ n: Int, to count: Int) -> String {
        let text = String(n)
        return String(repeating: "0", count: max(0, String(count).count - text.count)) + text
    }
}
