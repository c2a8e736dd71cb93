import BeaconCore
import BeaconWire
import Vocabulary

/// Each placed beacon's recent positions for the live map, newest last: a point whenever its
/// estimate moved `step` from the last one, at most `capacity` a beacon, and none for a beacon the
/// locator no longer tracks. So a still beacon holds one point, and memory follows the beacons present.
package struct LiveMapTrails: Sendable, Equatable {
    package struct Point: Sendable, Equatable {
        package var x: Double
        package var y: Double
        /// The tick that estimated it.
        package var at: Timestamp
    }

    /// Points kept a beacon: a minute of a walk at one estimate a second.
    package static let capacity = 60
    /// Metres an estimate moves before it is a new point: less is the estimate's jitter.
    package static let step = 0.3

    private(set) var points: [BeaconIdentity: [Point]] = [:]

    package init() {}

    package func track(of beacon: BeaconIdentity) -> [Point] { points[beacon] ?? [] }

    /// Adds a beacon's position when it moved `step` or more from the last point.
    mutating func record(_ beacon: BeaconIdentity, _ p: LocatorLocation.Position) {
        if let last = points[beacon]?.last {
            let (dx, dy) = (p.x - last.x, p.y - last.y)
            if last.at == p.at || (dx * dx + dy * dy).squareRoot() < Self.step { return }
        }
        points[beacon, default: []].append(Point(x: p.x, y: p.y, at: p.at))
        if points[beacon]!.count > Self.capacity { points[beacon]!.removeFirst(points[beacon]!.count - Self.capacity) }
    }

    /// Records between two sweeps for forgotten beacons at most.
    static let sweepTicks = 60
    private var sinceSweep = 0

    /// Whether `retain` should run now: more beacons held than `tracked`, or `sweepTicks` since the last.
    mutating func sweepDue(tracked: Int) -> Bool {
        sinceSweep += 1
        return points.count > tracked || sinceSweep >= Self.sweepTicks
    }

    /// Forgets every beacon `keep` does not hold.
    mutating func retain(_ keep: (BeaconIdentity) -> Bool) {
        sinceSweep = 0
        points = points.filter { keep($0.key) }
    }
}
