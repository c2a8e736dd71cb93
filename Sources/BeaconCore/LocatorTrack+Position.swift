import Vocabulary

/// Positions on a site plan (docs/locator.md, "Positions on a floor plan"): the beacon is placed on
/// the floor of its strongest gateway, the belief engine weighs the rooms of that floor by the
/// position's share in each, and the location carries the position.
extension LocatorTrack {
    /// Places the beacon at `t` on the floor of the strongest fresh gateway, when the plan covers
    /// that floor; else it has no position.
    mutating func locate(at t: Timestamp, _ cands: [Candidate], _ site: SitePlacement, offline: Set<String>) {
        let strongest = cands.max { ($0.latest.signal, $1.gateway) < ($1.latest.signal, $0.gateway) }
        guard let floor = strongest?.latest.floor, site.estimator.covers(floor: floor) else {
            position.set(nil, at: t)
            return
        }
        // A settled position and the same evidence: nothing to estimate (checked without building
        // the signals, as most beacons at most ticks are so).
        if position.settled, let p = position.estimate, p.floor == floor, let input = position.input,
            input.offline == offline,
            input.signals.count == cands.count,
            zip(input.signals, cands).allSatisfy({ $0.gateway == $1.gateway && $0.rssi == $1.latest.signal })
        {
            position.tick = t
            return
        }
        let signals = cands.map { PositionEstimator.Signal(gateway: $0.gateway, rssi: $0.latest.signal) }
        let elapsed = position.tick.map { (t - $0).seconds } ?? 0
        let estimate = site.estimator.estimate(
            floor: floor, signals: signals, measuredPower: measuredPower ?? Self.defaultMeasuredPower,
            exponent: site.exponent, offline: offline, previous: position.estimate, elapsed: elapsed)
        let same = position.input.map { $0.signals == signals && $0.offline == offline } ?? false
        let previous = position.estimate
        position.set(estimate, at: t)
        position.input = estimate.map { _ in (signals, offline) }
        position.settled = same && previous.flatMap { p in estimate.map { Self.isSettled(p, $0) } } ?? false
    }

    /// Whether an estimate stands where the last one did, as published (to the centimetre).
    static func isSettled(_ a: PositionEstimator.Estimate, _ b: PositionEstimator.Estimate) -> Bool {
        a.floor == b.floor && abs(a.x - b.x) < 0.005 && abs(a.y - b.y) < 0.005 && abs(a.radius - b.radius) < 0.005
    }

    /// The belief engine's evidence with the rooms of the position's floor weighed by the position:
    /// each room of the plan as likely as the position's share in it, scaled to the floor's
    /// strongest signal (so floors still weigh against each other by signal).
    mutating func positionEvidence(
        _ evidence: [RoomBelief.Evidence], at t: Timestamp, _ model: RoomBelief.Model
    ) -> [RoomBelief.Evidence] {
        guard let p = position.estimate, position.tick == t else { return evidence }
        var top = -Double.infinity
        var elsewhere = false
        for e in evidence {
            if e.place.floor == p.floor { top = max(top, e.signal) } else { elsewhere = true }
        }
        guard top > -.infinity else { return evidence }
        // The rooms' evidence is built once per position, strongest signal and model: the same
        // array again (no copy) while they stand, as the belief's settled check compares it.
        if position.planEvidence.map({ $0.top != top || $0.model != model }) ?? true {
            // A room gets about (1 − stay) / (places − 1) of the belief a tick by moves, weighed by
            // its share against the likeliest room's: below `forget` · (capacity − 1) / (1 − stay)
            // of that share a full belief could not keep it, and it would be admitted and
            // forgotten over and over (its belief never settled), so it is no evidence.
            let least =
                (p.rooms.map(\.probability).max() ?? 0) * model.forget * Double(max(model.capacity - 1, 1))
                / max(1 - model.stay, model.forget)
            position.planEvidence = (
                top, model,
                p.rooms.filter { $0.probability >= least }.map { share in
                    RoomBelief.Evidence(
                        gateway: Self.planGateway, place: .init(floor: p.floor, room: share.room),
                        signal: top + model.spread * Numerics.log(max(share.probability, Self.leastShare)))
                }
            )
        }
        let rooms = position.planEvidence?.rooms ?? []
        guard elsewhere else { return rooms }
        return evidence.filter { $0.place.floor != p.floor } + rooms
    }

    /// The engine's `change` with the position on its location; with no change, the location again
    /// (same room and `since`) once the position moved more than the deadband from the one
    /// published, so readers see the position in steps, not every tick.
    mutating func positioned(
        _ change: (previous: LocatorLocation?, current: LocatorLocation)?, at t: Timestamp, _ site: SitePlacement
    ) -> (previous: LocatorLocation?, current: LocatorLocation)? {
        guard var l = location, l.isHome else { return change }
        let now = position.estimate.flatMap { p in
            p.floor == l.floor
                ? LocatorLocation.Position(x: Self.centi(p.x), y: Self.centi(p.y), radius: Self.centi(p.radius), at: t)
                : nil
        }
        if let change {
            l.position = now
            location = l
            return (change.previous, l)
        }
        guard let now, l.position.map({ now.distance(to: $0) > site.deadband }) ?? true else { return nil }
        let previous = l
        l.position = now
        location = l
        return (previous, l)
    }

    /// The plan speaks for the rooms of its floor as one gateway that is never offline.
    static let planGateway = ""
    /// The smallest share a room's evidence reflects (a share of 0 is not a certainty).
    static let leastShare = 1e-6
    /// An iBeacon's usual RSSI at 1 m, for beacons whose readings carry none.
    static let defaultMeasuredPower = -59.0
}
