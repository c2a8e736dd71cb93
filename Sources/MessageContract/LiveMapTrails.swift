import BeaconCore
import BeaconWire
import Vocabulary

/// Each placed beacon's recent positions for the live map, newest last: a point per new estimate,
/// at most `capacity` a beacon, and none for a beacon the locator no longer tracks, so memory
/// follows the beacons present.
package struct LiveMapTrails: Sendable, Equatable {
    package struct Point: Sendable, Equatable {
        package var x: Double
        package var y: Double
        /// The tick that estimated it.
        package var at: Timestamp
    }

    /// Points kept a beacon: a few minutes of a walk at one estimate a second.
    package static let capacity = 120

    private(set) var points: [BeaconIdentity: [Point]] = [:]

    package init() {}

    package func track(of beacon: BeaconIdentity) -> [Point] { points[beacon] ?? [] }

    /// Adds a beacon's position when it is a new estimate (another tick).
    mutating func record(_ beacon: BeaconIdentity, _ p: LocatorLocation.Position) {
        if points[beacon]?.last?.at == p.at { return }
        points[beacon, default: []].append(Point(x: p.x, y: p.y, at: p.at))
        if points[beacon]!.count > Self.capacity { points[beacon]!.removeFirst(points[beacon]!.count - Self.capacity) }
    }

    /// Forgets every beacon `keep` does not hold.
    mutating func retain(_ keep: (BeaconIdentity) -> Bool) {
        points = points.filter { keep($0.key) }
    }
}
