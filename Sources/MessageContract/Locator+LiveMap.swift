import BeaconCore
import BeaconWire
import Vocabulary

extension Locator {
    /// Adds every placed beacon's newest position to `trails`, and drops the beacons no longer
    /// tracked when it holds more than are tracked (a forgotten beacon's points go at once, unless
    /// a new beacon took its place in the count; then within `LiveMapTrails.sweepTicks`).
    package func record(_ trails: inout LiveMapTrails) {
        for (beacon, track) in tracks.byBeacon {
            if let p = track.location?.position { trails.record(beacon, p) }
        }
        if trails.sweepDue(tracked: tracks.count) { trails.retain { tracks[$0] != nil } }
    }

    /// The live map at `at`: the site plan, the gateways (the plan's, then any other heard, by id)
    /// and every beacon with a location, in beacon order.
    package func liveMap(trails: LiveMapTrails, at: Timestamp) -> LiveMap {
        let plan = settings.positions.plan ?? SitePlan()
        let rooms = plan.rooms.enumerated().map { i, r in
            LiveMap.Room(
                floor: r.floor, name: r.name, color: LiveMap.palette[i % LiveMap.palette.count], outline: r.outline)
        }
        let skewed = Set(clocks.all.filter { $0.clock.state != .ok }.map(\.gateway))
        var gateways = plan.gateways.map {
            LiveMap.Gateway(
                id: $0.id, floor: $0.floor, room: $0.room, position: $0.position, online: hears($0.id),
                clockSkewed: skewed.contains($0.id))
        }
        for id in knownGateways.dropFirst(plan.gateways.count) {
            gateways.append(
                .init(
                    id: id, floor: nil, room: nil, position: nil, online: hears(id), clockSkewed: skewed.contains(id)))
        }
        let prefix = topics.base + "/"
        var beacons: [LiveMap.Beacon] = []
        for beacon in tracks.order {
            guard let track = tracks[beacon], let l = track.location else { continue }
            var id = Substring(topics.location(beacon).dropLast("/location".count))
            if id.hasPrefix(prefix) { id = id.dropFirst(prefix.count) }
            let color = rooms.first { $0.floor == l.floor && $0.name == l.room }?.color
            beacons.append(
                .init(id: String(id), name: track.name, location: l, color: color, track: trails.track(of: beacon)))
        }
        return LiveMap(
            at: at, floors: plan.floors, rooms: rooms, walls: plan.walls, gateways: gateways, beacons: beacons)
    }
}
