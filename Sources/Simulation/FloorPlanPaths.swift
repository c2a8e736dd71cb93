import Glibc

/// A floor plan's walks indexed for the simulators: each beacon's waypoints in file order with
/// their storeys worked out once, so a position costs a walk along that beacon's own path instead
/// of a filter over every waypoint of the plan (a campus has tens of thousands).
package struct FloorPlanPaths: Sendable {
    package struct Point: Sendable {
        var at: Double
        var x: Double
        var y: Double
        var level: Int
    }

    /// Beacon minors, ascending (`FloorPlan.minors`); a beacon's index here sets its advert phase.
    package let minors: [UInt16]
    private let points: [[Point]]

    package init(_ plan: FloorPlan) {
        minors = plan.minors
        var levels: [String: Int] = [:]
        var index: [UInt16: Int] = [:]
        for (i, m) in minors.enumerated() { index[m] = i }
        var points = [[Point]](repeating: [], count: minors.count)
        for w in plan.waypoints {
            let level = levels[w.floor] ?? plan.level(w.floor)
            levels[w.floor] = level
            points[index[w.minor]!].append(Point(at: w.at, x: w.x, y: w.y, level: level))
        }
        self.points = points
    }

    /// Beacon `minors[i]`'s position at `t`: (x, y, storey), interpolated linearly between
    /// waypoints; the floor changes half-way, on the stairs.
    package func position(beacon i: Int, at t: Double) -> (x: Double, y: Double, level: Int)? {
        let path = points[i]
        guard let first = path.first else { return nil }
        guard let next = path.firstIndex(where: { $0.at > t }) else {
            let last = path[path.count - 1]
            return (last.x, last.y, last.level)
        }
        if next == 0 { return (first.x, first.y, first.level) }
        let a = path[next - 1]
        let b = path[next]
        let f = (t - a.at) / (b.at - a.at)
        return (a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, f < 0.5 ? a.level : b.level)
    }

    /// Every advert sent in [from, to) seconds, in time order: beacon `minors[i]` sends in slot k
    /// (every `interval`) at k·interval + interval·i/count, with its own phase so adverts
    /// interleave; `body` gets the beacon's index, minor, slot, send time and position.
    package func forEachAdvert(
        from: Double, to: Double, interval: Double,
        _ body: (_ i: Int, _ minor: UInt16, _ slot: Int64, _ t: Double, _ at: (x: Double, y: Double, level: Int)) ->
            Void
    ) {
        guard to > from else { return }
        var k = Int64((max(from, 0) / interval).rounded(.down))
        while Double(k) * interval < to {
            for (i, minor) in minors.enumerated() {
                let t = Double(k) * interval + interval * Double(i) / Double(minors.count)
                guard t >= from, t < to, let p = position(beacon: i, at: t) else { continue }
                body(i, minor, k, t, p)
            }
            k += 1
        }
    }
}
