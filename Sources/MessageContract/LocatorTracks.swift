import BeaconCore
import BeaconWire

/// The beacons a locator tracks, each with its `LocatorTrack`, and in beacon order, so output order
/// never depends on hashing.
struct LocatorTracks: Sendable {
    /// Each tracked beacon's track. A beacon removed here leaves `order` at `dropRemoved()`.
    var byBeacon: [BeaconIdentity: LocatorTrack] = [:]
    /// The tracked beacons in order.
    private(set) var order: [BeaconIdentity] = []

    subscript(beacon: BeaconIdentity) -> LocatorTrack? { byBeacon[beacon] }

    var count: Int { byBeacon.count }

    /// Edits `beacon`'s track in place, a new one when it has none.
    mutating func edit(_ beacon: BeaconIdentity, _ body: (inout LocatorTrack) -> Void) {
        if byBeacon[beacon] == nil {
            byBeacon[beacon] = LocatorTrack()
            // Binary search: the first tracked beacon after this one (a site starts with thousands).
            var low = order.startIndex
            var high = order.endIndex
            while low < high {
                let mid = (low + high) / 2
                if beacon < order[mid] { high = mid } else { low = mid + 1 }
            }
            order.insert(beacon, at: low)
        }
        body(&byBeacon[beacon]!)
    }

    /// Stops tracking the beacons `isRemoved` names; returns them in order.
    mutating func remove(where isRemoved: (BeaconIdentity) -> Bool) -> [BeaconIdentity] {
        let removed = order.filter(isRemoved)
        for beacon in removed { byBeacon[beacon] = nil }
        dropRemoved()
        return removed
    }

    /// Takes the beacons removed from `byBeacon` out of `order`.
    mutating func dropRemoved() { order.removeAll { byBeacon[$0] == nil } }
}
