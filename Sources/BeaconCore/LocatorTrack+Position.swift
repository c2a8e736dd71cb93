import Vocabulary

/// Positions on a site plan (docs/locator.md, "Positions on a floor plan"): the beacon is placed on
/// the floor of its strongest gateway, the belief engine weighs the rooms of that floor by the
/// position's share in each, and the location carries the position.
extension LocatorTrack {
    /// Places the beacon at `t` on the floor of the strongest fresh gateway, when the plan covers
    /// that floor; else it has no position.
    mutating func locate(at t: Timestamp, _ cands: [Candidate], _ site: SitePlacement, offline: Set<String>) {
        // The strongest, the first in gateway order among equals; read in place, no candidate copied.
        var strongest = cands.startIndex
        for i in cands.indices.dropFirst() where cands[i].latest.signal > cands[strongest].latest.signal {
            strongest = i
        }
        guard let floor = cands.isEmpty ? nil : cands[strongest].latest.floor, site.estimator.covers(floor: floor)
        else {
            position.set(nil, at: t)
            return
        }
        // A settled position and the same evidence: nothing to estimate (checked without building
        // the signals, as most beacons at most ticks are so).
        if position.stands(on: floor, cands, offline: offline) {
            position.tick = t
            return
        }
        let signals = cands.map { PositionEstimator.Signal(gateway: $0.gateway, rssi: $0.latest.signal) }
        let elapsed = position.tick.map { (t - $0).seconds } ?? 0
        let estimate = site.estimator.estimate(
            floor: floor, signals: signals, measuredPower: measuredPower ?? Self.defaultMeasuredPower,
            exponent: site.exponent, offline: offline, previous: position.estimate, elapsed: elapsed)
        let same = position.isEstimated(from: signals, offline: offline)
        let settled =
            same
            && position.estimate.flatMap { p in estimate.map { Self.isSettled(p, $0, site.estimator.model) } } ?? false
        position.set(estimate, at: t, signals: signals, offline: offline, settled: settled)
    }

    /// Whether an estimate stands where the last one did, for a position known to within its error
    /// radius: it moved, and its radius changed, by less than `PositionEstimator.Model.settled` of
    /// that radius. The same evidence again would move it on by a few such steps at most, each a
    /// fraction of the last: no distance its uncertainty can tell.
    static func isSettled(
        _ a: PositionEstimator.Estimate, _ b: PositionEstimator.Estimate, _ model: PositionEstimator.Model
    ) -> Bool {
        let (dx, dy) = (a.x - b.x, a.y - b.y)
        let within = model.settled * b.radius
        return a.floor == b.floor && dx * dx + dy * dy < within * within && abs(a.radius - b.radius) < within
    }

    /// The belief engine's evidence with the rooms of the position's floor weighed by the position:
    /// each room of the plan as likely as the position's share in it, scaled to the floor's
    /// strongest signal (so floors still weigh against each other by signal). Generic so the
    /// engine passes its gateways' evidence unbuilt: on a floor of its own, none is kept.
    mutating func positionEvidence(
        _ evidence: some Collection<RoomBelief.Evidence>, at t: Timestamp, _ model: RoomBelief.Model
    ) -> [RoomBelief.Evidence] {
        guard position.tick == t, let floor = position.estimate?.floor else { return Array(evidence) }
        var top = -Double.infinity
        var elsewhere = false
        for e in evidence {
            if e.place.floor == floor { top = max(top, e.signal) } else { elsewhere = true }
        }
        guard top > -.infinity else { return Array(evidence) }
        // The rooms' evidence is built once per position, strongest signal and model: the same
        // array again (no copy) while they stand, as the belief's settled check compares it.
        let rooms: [RoomBelief.Evidence]
        if let kept = position.rooms(top: top, model) {
            rooms = kept
        } else {
            rooms = Self.evidence(
                shares: (position.estimate?.rooms ?? []).map { (.init(floor: floor, room: $0.room), $0.probability) },
                top: top, model)
            position.keep(rooms: rooms, top: top, model)
        }
        guard elsewhere else { return rooms }
        return evidence.filter { $0.place.floor != floor } + rooms
    }

    /// Rooms' shares as the belief engine's evidence, one gateway's (`planGateway`) scaled to the
    /// floor's strongest signal `top`: each room as likely as its share.
    static func evidence(
        shares: [(place: RoomBelief.Place, probability: Double)], top: Double, _ model: RoomBelief.Model
    ) -> [RoomBelief.Evidence] {
        // A room gets about (1 − stay) / (places − 1) of the belief a tick by moves, weighed by its
        // share against the likeliest room's: below `forget` · (capacity − 1) / (1 − stay) of that
        // share a full belief could not keep it, and it would be admitted and forgotten over and
        // over (its belief never settled), so it is no evidence.
        var most = 0.0
        for share in shares { most = max(most, share.probability) }
        let least = most * model.forget * Double(max(model.capacity - 1, 1)) / max(1 - model.stay, model.forget)
        var rooms: [RoomBelief.Evidence] = []
        rooms.reserveCapacity(shares.count)
        for share in shares where share.probability >= least {
            rooms.append(
                RoomBelief.Evidence(
                    gateway: planGateway, place: share.place,
                    signal: top + model.spread * Numerics.log(max(share.probability, leastShare))))
        }
        return rooms
    }

    /// The engine's `change` with the position on its location; with no change, the location again
    /// (same room and `since`) once the position moved more than the deadband from the one
    /// published, so readers see the position in steps, not every tick.
    mutating func positioned(
        _ change: (previous: LocatorLocation?, current: LocatorLocation)?, at t: Timestamp, _ site: SitePlacement
    ) -> (previous: LocatorLocation?, current: LocatorLocation)? {
        // The location read in place (`glance`), and the position written in place: most ticks
        // publish nothing.
        let current = glance()
        guard current?.isHome == true else { return change }
        let now = position.point(on: current?.floor, at: t)
        if let change {
            location?.position = now
            return location.map { (change.previous, $0) }
        }
        guard let now, current?.position.map({ now.distance(to: $0) > site.deadband }) ?? true else { return nil }
        let previous = location
        location?.position = now
        return location.map { (previous, $0) }
    }

    /// The plan, or the fingerprints, speak for the rooms of a floor as one gateway that is never
    /// offline.
    static let planGateway = ""
    /// The smallest share a room's evidence reflects (a share of 0 is not a certainty).
    static let leastShare = 1e-6
    /// An iBeacon's usual RSSI at 1 m, for beacons whose readings carry none.
    static let defaultMeasuredPower = -59.0
}
