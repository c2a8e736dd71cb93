import BeaconWire
import Vocabulary

/// What the locator knows about one beacon: recent readings per gateway and the current location.
///
/// Every decision is taken at a tick T from the readings stamped at or before T, so it depends on
/// the messages and their timestamps only, never on arrival order or on which locator takes it.
package struct LocatorTrack: Sendable {
    package struct Sample: Sendable, Equatable {
        package var timestamp: Timestamp
        /// Metres, rssi_offset applied.
        package var distance: Double
        package var floor: String?
        package var room: String?
        /// dBm: the filtered RSSI with its calibration applied; from the distance when none was published.
        package var signal: Double
        /// dB: the locator's calibration in `signal` (`locator.rssi_offset` or the fitted one).
        package var offset: Double
        /// dBm: `signal` as the gateway published it, without the locator's calibration, as room
        /// fingerprints read it.
        package var published: Double { signal - offset }

        package init(
            timestamp: Timestamp, distance: Double, floor: String?, room: String?, signal: Double? = nil,
            offset: Double = 0
        ) {
            self.timestamp = timestamp
            self.distance = distance
            self.floor = floor
            self.room = room
            self.signal = signal ?? Self.signal(distance: distance)
            self.offset = offset
        }

        /// The RSSI a beacon of the default measured power (−59 dBm at 1 m) shows at `distance` in
        /// free space: for readings that carry a distance only.
        package static func signal(distance: Double) -> Double {
            -59 - 20 * Numerics.log(max(distance, 0.1)) / Numerics.ln10
        }
    }

    /// A gateway whose readings count at a tick.
    struct Candidate {
        var gateway: String
        /// Its fresh readings, oldest first, at most `historyWindow`; never empty.
        var history: ArraySlice<Sample>
        var latest: Sample { history[history.endIndex - 1] }
        /// The belief engine's place of this gateway: its room, or itself when it has none.
        var place: RoomBelief.Place { .init(floor: latest.floor, room: latest.room ?? gateway) }
    }

    /// Readings kept per gateway stamped after the last decided tick, at most. Only a gateway whose
    /// clock runs ahead of the others (or a flood of such timestamps) fills it: the oldest of them
    /// goes first. A locator behind its readings decides them all exactly — a messages-clock
    /// `locate` decides each tick as its clock passes it, a wall-clock one has only `settle` ahead.
    package static let aheadCapacity = 64
    /// `wake`'s answer when nothing but a message can change the decision.
    static let never = Timestamp(microseconds: .max)

    package var name: String?
    /// Each gateway's readings in timestamp order, the gateways sorted by id: a site's beacon is
    /// heard by a few gateways, so a sorted array costs the tick no hashing and no sort.
    private(set) var feeds: [(gateway: String, samples: [Sample])] = []
    /// Gateway → when it reported the beacon gone (its exit event); its older readings stop counting.
    private var lostAt: [String: Timestamp] = [:]
    package internal(set) var location: LocatorLocation?
    /// Newest reading stamped at or before the last decided tick.
    private var seen: Timestamp?
    /// Set by a restore; the first tick after it starts the grace a restored owner has to report.
    private var restoredPending = false
    private var restoredTick: Timestamp?
    /// Timestamp of the owner's reading last fed to mqtt_room.
    package var lastFed: Timestamp?
    /// The belief engine's state (`engine` `belief`).
    private var belief = TrackBelief()
    /// With a site plan: where the beacon stands.
    var position = TrackPosition()
    /// The beacon's advertised RSSI at 1 m (its readings' `measured_power`), for the position's model
    /// and the fingerprints (`RoomFingerprints.Room.power`).
    package var measuredPower: Double?
    /// The earliest tick whose decision can differ from the last one's if no message for this
    /// beacon arrives before it (`wake`); nil: decide at the next tick.
    package private(set) var nextDecision: Timestamp?

    package init() {}

    /// Not home and no reading held: nothing left to decide, and the beacon can be forgotten. A
    /// mutating getter, so that a track read through a dictionary's values is read in place: a
    /// plain getter there copies the whole track, at every beacon every tick.
    package var isGone: Bool {
        mutating get { feeds.isEmpty && location?.isHome == false }
    }

    /// The readings held of `gateway`, in timestamp order.
    package func readings(of gateway: String) -> [Sample]? {
        feeds.first { $0.gateway == gateway }?.samples
    }

    /// Keeps each gateway's readings in timestamp order (a reading with a timestamp already held
    /// replaces it). Edits the list in place: copying it out and back would copy its storage on
    /// every reading.
    ///
    /// What is kept is what the rule can still use: of the readings stamped at or before `decided`
    /// (the last decided tick) the newest `keep` (`history_window`), since every later tick takes its
    /// newest `history_window` from those and the newer ones; of the later ones all, up to
    /// `aheadCapacity`. So memory stays bounded under any flood, and a backlog decided late (a burst,
    /// a bridge draining) decides as it would have in real time.
    package mutating func insert(_ s: Sample, gateway: String, keep: Int, decided: Timestamp?) {
        nextDecision = nil
        if let i = feeds.firstIndex(where: { $0.gateway == gateway }) {
            Self.insert(s, into: &feeds[i].samples, keep: max(keep, 1), decided: decided)
        } else {
            feeds.insert((gateway, [s]), at: feeds.firstIndex { gateway < $0.gateway } ?? feeds.endIndex)
        }
    }

    private static func insert(_ s: Sample, into list: inout [Sample], keep: Int, decided: Timestamp?) {
        if let i = list.lastIndex(where: { $0.timestamp <= s.timestamp }) {
            if list[i].timestamp == s.timestamp { list[i] = s } else { list.insert(s, at: i + 1) }
        } else {
            list.insert(s, at: 0)
        }
        guard list.count > keep else { return }
        let ahead =
            decided.map { d in list.count - (list.lastIndex { $0.timestamp <= d }.map { $0 + 1 } ?? 0) } ?? list.count
        let behind = list.count - ahead
        if behind > keep { list.removeFirst(behind - keep) }
        if ahead > aheadCapacity { list.remove(at: min(behind, keep)) }
    }

    /// Every time this track holds moves by `delta`: the locator's timeline stepped with its wall clock.
    package mutating func shift(by delta: TimeSpan) {
        for i in feeds.indices {
            for j in feeds[i].samples.indices { feeds[i].samples[j].timestamp = feeds[i].samples[j].timestamp + delta }
        }
        nextDecision = nil
        lostAt = lostAt.mapValues { $0 + delta }
        if var l = location {
            l.since = l.since + delta
            l.lastSeen = l.lastSeen.map { $0 + delta }
            location = l
        }
        seen = seen.map { $0 + delta }
        restoredTick = restoredTick.map { $0 + delta }
        belief.tick = belief.tick.map { $0 + delta }
        lastFed = lastFed.map { $0 + delta }
    }

    package mutating func lose(gateway: String, at t: Timestamp) {
        nextDecision = nil
        if let old = lostAt[gateway], old >= t { return }
        lostAt[gateway] = t
    }

    package mutating func restore(_ l: LocatorLocation) {
        guard location == nil else { return }
        location = l
        restoredPending = true
        nextDecision = nil
    }

    /// What the gateways published at `t`, as room fingerprints read it: each online gateway's
    /// newest fresh reading, its place and its signal without the locator's calibration (dBm),
    /// sorted by gateway.
    package func published(at t: Timestamp, _ s: LocatorSettings, offline: Set<String>) -> [RoomBelief.Evidence] {
        candidates(at: t, s, offline: offline).map {
            RoomBelief.Evidence(gateway: $0.gateway, place: $0.place, signal: $0.latest.published)
        }
    }

    /// Gateways whose readings count at `t`, sorted by id.
    func candidates(at t: Timestamp, _ s: LocatorSettings, offline: Set<String>) -> [Candidate] {
        var out: [Candidate] = []
        out.reserveCapacity(feeds.count)
        for (gateway, list) in feeds where offline.isEmpty || !offline.contains(gateway) {
            let fresh = Self.fresh(list, at: t, staleAfter: s.staleAfter, lost: lostAt.isEmpty ? nil : lostAt[gateway])
            guard !fresh.isEmpty else { continue }
            out.append(Candidate(gateway: gateway, history: fresh.suffix(max(1, s.handOver.historyWindow))))
        }
        return out
    }

    /// The readings of `list` (in timestamp order) that count at `t`: stamped at or before `t`, less
    /// than `staleAfter` old, and not older than the gateway's exit event if it reported one by `t`.
    /// Each bound is monotonic in the timestamp, so they are one contiguous slice of the list.
    package static func fresh(
        _ list: [Sample], at t: Timestamp, staleAfter: TimeSpan, lost: Timestamp?
    ) -> ArraySlice<Sample> {
        var lower = t - staleAfter
        var lowerInclusive = false
        if let lost, lost <= t, lost > lower {
            lower = lost
            lowerInclusive = true
        }
        let start = list.firstIndex { lowerInclusive ? $0.timestamp >= lower : $0.timestamp > lower } ?? list.endIndex
        let end = list.lastIndex { $0.timestamp <= t }.map { $0 + 1 } ?? list.startIndex
        return start < end ? list[start..<end] : list[list.endIndex...]
    }

    /// Decides tick `t`; returns the previous and the new location when it changed. Then notes in
    /// `nextDecision` the first tick that could decide otherwise if no message comes first.
    package mutating func decide(
        at t: Timestamp, _ s: LocatorSettings, offline: Set<String>, site: SitePlacement? = nil
    )
        -> (previous: LocatorLocation?, current: LocatorLocation)?
    {
        let change = rule(at: t, s, offline: offline, site: site)
        // A change is decided again at the next tick: with the new owner the rule may move on at
        // once (a `min_dwell` of 0, a nearer gateway on the same floor). So is a belief still moving.
        // A position moves with every reading and every tick of its motion model: decided each tick.
        nextDecision =
            change == nil && !belief.moving && (site == nil || position.settled) ? wake(after: t, s) : nil
        return change
    }

    /// The earliest time after `t` at which the rule, given no new message, the same settings and
    /// the same offline gateways, can decide otherwise than at `t` (where it changed nothing):
    /// until then every input of `rule` is as it was at `t`. What the rule reads of the time, and when each changes:
    /// - a held reading stamped after `t` counts from its timestamp (and moves `seen`);
    /// - a reading stops counting `staleAfter` after its timestamp (`fresh`, `prune`);
    /// - an exit event counts from its time, and stops bounding `staleAfter` later (`fresh`, `prune`);
    /// - the dwell ends at `since + minDwell`, `not_home` is due `awayTimeout` after the last reading,
    ///   a restored owner's grace ends `staleAfter` after its first tick.
    /// Each is taken at its earliest (every reading, every exit), so the bound is never late.
    func wake(after t: Timestamp, _ s: LocatorSettings) -> Timestamp {
        var next = Self.never
        func consider(_ at: Timestamp) { if at > t, at < next { next = at } }
        for (_, list) in feeds {
            guard let first = list.first else { continue }
            consider(first.timestamp + s.staleAfter)
            // The oldest reading stamped after t (the list is in timestamp order; those are its tail).
            let i = list.lastIndex { $0.timestamp <= t }.map { $0 + 1 } ?? 0
            if i < list.endIndex { consider(list[i].timestamp) }
        }
        for (_, at) in lostAt {
            consider(at)
            consider(at + s.staleAfter)
        }
        if let l = location, l.isHome {
            consider(l.since + s.handOver.minDwell)
            consider((latest(seen, l.lastSeen, restoredTick) ?? l.since) + s.awayTimeout)
        }
        if let r = restoredTick { consider(r + s.staleAfter) }
        return next
    }

    /// The latest of three optional instants, without building an array on the tick's path.
    private func latest(_ a: Timestamp?, _ b: Timestamp?, _ c: Timestamp?) -> Timestamp? {
        var m = a
        if let b, m.map({ b > $0 }) ?? true { m = b }
        if let c, m.map({ c > $0 }) ?? true { m = c }
        return m
    }

    private mutating func rule(
        at t: Timestamp, _ s: LocatorSettings, offline: Set<String>, site: SitePlacement?
    )
        -> (previous: LocatorLocation?, current: LocatorLocation)?
    {
        if restoredPending {
            restoredPending = false
            restoredTick = t
        }
        for (_, list) in feeds {
            if let newest = list.last(where: { $0.timestamp <= t })?.timestamp, seen.map({ newest > $0 }) ?? true {
                seen = newest
            }
        }
        // Pruned first: what goes is never fresh at t, and the candidates' slices then share the
        // lists' storage without a later edit copying it.
        prune(before: t - s.staleAfter)
        let cands = candidates(at: t, s, offline: offline)
        guard !cands.isEmpty else {
            belief.moving = false
            position.set(nil, at: nil)
            return away(at: t, s)
        }
        guard let site else { return engine(at: t, cands, s, offline: offline, site: nil) }
        locate(at: t, cands, site, offline: offline)
        return positioned(engine(at: t, cands, s, offline: offline, site: site), at: t, site)
    }

    /// The room engine's decision at `t`.
    private mutating func engine(
        at t: Timestamp, _ cands: [Candidate], _ s: LocatorSettings, offline: Set<String>, site: SitePlacement?
    )
        -> (previous: LocatorLocation?, current: LocatorLocation)?
    {
        if s.engine == .belief { return believed(at: t, cands, s, offline: offline, site: site) }
        let previous = location
        guard let owner = previous?.gateway else { return moved(to: preferred(cands, s), cands, at: t) }
        guard let incumbent = cands.first(where: { $0.gateway == owner }) else {
            // A restored owner gets one stale period to send its first reading before it counts as gone.
            if readings(of: owner) == nil, let r = restoredTick, t < r + s.staleAfter, !offline.contains(owner),
                lostAt[owner] == nil
            {
                return nil
            }
            return moved(to: preferred(cands, s), cands, at: t)
        }
        restoredTick = nil
        guard let since = previous?.since, t >= since + s.handOver.minDwell else { return nil }
        // The nearest qualifying challenger; the first of equals, as `min(by:)` would pick.
        var winner: Candidate?
        for c in cands where c.gateway != owner && qualifies(c, over: incumbent, cands, s) {
            if winner.map({ Self.nearer(c, $0) }) ?? true { winner = c }
        }
        guard let winner else { return nil }
        return moved(to: winner, cands, at: t)
    }

    /// Rounded as published, so a location read back from its retained message compares equal.
    static func centi(_ v: Double) -> Double { (v * 100).rounded() / 100 }

    /// Whether every gateway in `weighed` (those a floor's fingerprints or site plan weigh) heard
    /// the beacon or is offline: none has its first reading still to come. False without any.
    static func everyGatewaySpoke(_ weighed: [String]?, heard: [Candidate], offline: Set<String>) -> Bool {
        guard let weighed, !weighed.isEmpty else { return false }
        return weighed.allSatisfy { g in offline.contains(g) || heard.contains { $0.gateway == g } }
    }

    private static func nearer(_ a: Candidate, _ b: Candidate) -> Bool {
        (a.latest.distance, a.gateway) < (b.latest.distance, b.gateway)
    }

    /// The nearest engine's hand-over rule (docs/locator.md, "The nearest engine"): outright (≥ 30 % closer now) or sustained (≥ 15 %
    /// closer in every reading of a history of ≥ 3); across floors, outright must hold on the last
    /// `floor_confirmations` readings, and a sustained-only win is refused when the owner's floor has
    /// more gateways seeing the beacon.
    private func qualifies(_ c: Candidate, over o: Candidate, _ all: [Candidate], _ s: LocatorSettings) -> Bool {
        let outrightLimit = (1 - s.handOver.switchOutright) * o.latest.distance
        let outright = c.latest.distance <= outrightLimit
        var ownerBest = o.latest.distance
        for r in o.history where r.distance < ownerBest { ownerBest = r.distance }
        let sustained =
            c.history.count >= max(2, s.handOver.minHistory)
            && c.history.allSatisfy { $0.distance <= (1 - s.handOver.switchSustained) * ownerBest }
        if c.latest.floor == o.latest.floor { return outright || sustained }
        let confirmations = max(2, s.floorConfirmations)
        if c.history.count >= confirmations,
            c.history.suffix(confirmations).allSatisfy({ $0.distance <= outrightLimit })
        {
            return true
        }
        guard sustained else { return false }
        let onFloor = { (floor: String?) in all.count { $0.latest.floor == floor } }
        return onFloor(c.latest.floor) >= onFloor(o.latest.floor)
    }

    /// The nearest candidate, except that among floors whose nearest gateway is within the outright
    /// margin of the overall nearest, the floor seen by more gateways wins.
    func preferred(_ cands: [Candidate], _ s: LocatorSettings) -> Candidate {
        let best = cands.min(by: Self.nearer)!
        var perFloor: [(count: Int, nearest: Candidate)] = []
        var floors: [String?] = []
        for c in cands {
            if let i = floors.firstIndex(of: c.latest.floor) {
                perFloor[i].count += 1
                if Self.nearer(c, perFloor[i].nearest) { perFloor[i].nearest = c }
            } else {
                floors.append(c.latest.floor)
                perFloor.append((1, c))
            }
        }
        let close = perFloor.filter {
            best.latest.distance > (1 - s.handOver.switchOutright) * $0.nearest.latest.distance
        }
        return close.min { a, b in
            a.count != b.count ? a.count > b.count : Self.nearer(a.nearest, b.nearest)
        }?.nearest ?? best
    }

    private mutating func moved(
        to c: Candidate, _ cands: [Candidate], at t: Timestamp
    )
        -> (previous: LocatorLocation?, current: LocatorLocation)?
    {
        let previous = location
        let inverse = { (d: Double) in 1 / max(d, 0.1) }
        let total = cands.reduce(0) { $0 + inverse($1.latest.distance) }
        let next = LocatorLocation(
            gateway: c.gateway, floor: c.latest.floor, room: c.latest.room, accuracy: Self.centi(c.latest.distance),
            since: t, confidence: Self.centi(inverse(c.latest.distance) / total), lastSeen: seen)
        restoredTick = nil
        if let p = previous, p.gateway == next.gateway, p.floor == next.floor, p.room == next.room { return nil }
        location = next
        return (previous, next)
    }

    /// The belief engine's rule (docs/locator.md, "The belief engine"): the belief takes the tick's
    /// evidence; its most likely room is named once it is `min_confidence` likely (on another floor,
    /// after leading `floor_confirmations` ticks); the named room turns `unknown` when none of its
    /// gateways hears the beacon any more (offline, or lost it) and it is no longer `min_confidence`
    /// likely, while no other room is.
    private mutating func believed(
        at t: Timestamp, _ cands: [Candidate], _ s: LocatorSettings, offline: Set<String>, site: SitePlacement?
    )
        -> (previous: LocatorLocation?, current: LocatorLocation)?
    {
        // A restored room's gateways get `stale_after` from the first tick after the restore to
        // report (they publish on a change or the heartbeat) before the room counts as unheard.
        let grace = restoredTick.map { t < $0 + s.staleAfter } ?? false
        if !grace { restoredTick = nil }
        // Meanwhile the restored room keeps its belief as a room of offline gateways does.
        var offline = offline
        if grace, let l = location, l.isHome, !l.isUnknown, let owner = l.gateway {
            belief.rooms.seed(.init(floor: l.floor, room: l.room ?? owner), gateway: owner)
            if !cands.contains(where: { $0.gateway == owner }) { offline.insert(owner) }
        }
        let gateways = cands.lazy.map {
            RoomBelief.Evidence(gateway: $0.gateway, place: $0.place, signal: $0.latest.signal)
        }
        let evidence =
            if let fingerprints = s.belief.fingerprints {
                Self.fingerprintEvidence(
                    Array(gateways), published: cands.map { ($0.gateway, $0.latest.published) },
                    fingerprints, offline: offline, power: measuredPower, s.belief.model)
            } else if site == nil {
                Array(gateways)
            } else {
                positionEvidence(gateways, at: t, s.belief.model)
            }
        let change = belief.update(at: t, evidence: evidence, offline: offline, interval: s.interval, s.belief.model)
        guard let best = belief.rooms.best else { return nil }
        let current = glance()
        let named = current?.named
        let floor = named?.floor ?? current?.floor
        belief.floorLead =
            best.place.floor != floor && best.probability >= s.belief.minConfidence ? belief.floorLead + 1 : 0
        // No room before `firstTicks` of evidence, in place of a restored one neither: the others
        // may not have sent their first reading yet. Unless the fingerprints or the site plan say
        // whom to wait for on the floor, and every one of them spoke.
        let ready =
            belief.rooms.updates >= s.belief.model.firstTicks
            || Self.everyGatewaySpoke(
                s.belief.fingerprints?.gateways(on: best.place.floor)
                    ?? site?.estimator.gateways(on: best.place.floor),
                heard: cands, offline: offline)
        // Decided again at the next tick while the belief moves, or a count of ticks runs (the first
        // ticks of evidence, another floor's lead), though no message comes.
        belief.moving = change > s.belief.model.settled || !ready || belief.floorLead > 0
        // A place is newly named only while evidence speaks for it: one whose gateways went offline
        // is kept, never taken up again.
        if best.place != named, best.probability >= s.belief.minConfidence, ready,
            evidence.contains(where: { $0.place == best.place }),
            current?.isHome != true || best.place.floor == floor
                || belief.floorLead >= max(2, s.floorConfirmations)
        {
            return placed(best.place, probability: best.probability, cands, at: t, unknown: false)
        }
        guard let named else { return nil }
        let probability = belief.rooms.probability(of: named)
        let heard = evidence.contains { $0.place == named }
        // Unknown when nothing speaks for the named room, or when rooms whose gateways are all
        // offline (which cannot be named) hold the doubt `min_confidence` allows: the beacon may be
        // in one of them.
        if s.belief.allowsUnknown, probability < s.belief.minConfidence, !grace,
            !heard || belief.rooms.muted(offline) >= 1 - s.belief.minConfidence
        {
            return placed(named, probability: probability, cands, at: t, unknown: true)
        }
        // The named room's confidence moved to another band: the location again, its room and
        // `since` unchanged, so readers (Home Assistant's attributes) see it in steps, not ticks.
        guard heard, let was = current?.confidence, let since = current?.since,
            LocatorLocation.band(probability, s.belief.minConfidence, was: was)
                != LocatorLocation.band(was, s.belief.minConfidence)
        else { return nil }
        return placed(named, probability: probability, cands, at: t, unknown: false, since: since)
    }

    /// What a tick reads of the location, read in place: in a mutating method each read through
    /// the optional would copy the whole location, its strings and lists, at every beacon every tick.
    struct Glance {
        /// The room named, as the belief engine's place; nil when `unknown` or not home.
        var named: RoomBelief.Place?
        var floor: String?
        var isHome: Bool
        var confidence: Double?
        var since: Timestamp
        var position: LocatorLocation.Position?
    }

    /// The location as a tick reads it; nil: none.
    func glance() -> Glance? {
        guard let l = location else { return nil }
        return Glance(
            named: l.isHome && !l.isUnknown ? RoomBelief.Place(floor: l.floor, room: l.room ?? l.gateway!) : nil,
            floor: l.floor, isHome: l.isHome, confidence: l.confidence, since: l.since, position: l.position)
    }

    /// The location naming `place` (or, `unknown`, no room): its strongest fresh gateway owns it.
    private mutating func placed(
        _ place: RoomBelief.Place, probability: Double, _ cands: [Candidate], at t: Timestamp, unknown: Bool,
        since: Timestamp? = nil
    ) -> (previous: LocatorLocation?, current: LocatorLocation)? {
        let inPlace = cands.filter { $0.place == place }
        let strongest = { (list: [Candidate]) in
            list.max { ($0.latest.signal, $1.gateway) < ($1.latest.signal, $0.gateway) }
        }
        let owner = (unknown ? nil : strongest(inPlace)) ?? strongest(cands)!
        // A room with no gateway (named from the position) names itself.
        let room = unknown ? nil : inPlace.isEmpty ? place.room : owner.latest.room
        let next = LocatorLocation(
            gateway: owner.gateway, floor: place.floor, room: room,
            accuracy: Self.centi(owner.latest.distance), since: since ?? t, confidence: Self.centi(probability),
            lastSeen: seen, isUnknown: unknown,
            likely: belief.rooms.ranked(3, atLeast: 0.05).map {
                LocatorLocation.Likely(
                    floor: $0.place.floor, room: $0.place.room, probability: Self.centi($0.probability))
            })
        let previous = location
        location = next
        return (previous, next)
    }

    private mutating func away(
        at t: Timestamp, _ s: LocatorSettings
    )
        -> (previous: LocatorLocation?, current: LocatorLocation)?
    {
        guard let previous = location, previous.isHome else { return nil }
        // A restored location counts from the later of its last_seen and the first tick after the restore.
        let last = latest(seen, previous.lastSeen, restoredTick) ?? previous.since
        let at = last + s.awayTimeout
        guard t >= at else { return nil }
        let next = LocatorLocation(
            gateway: nil, floor: nil, room: nil, accuracy: nil, since: at, confidence: nil,
            lastSeen: seen ?? previous.lastSeen)
        location = next
        position.set(nil, at: nil)
        belief = TrackBelief()
        restoredTick = nil
        return (previous, next)
    }

    /// Drops readings stamped at or before `horizon` (each list is in timestamp order, so they are
    /// its head), and the gateways left without any. Lists with nothing to drop are not touched.
    private mutating func prune(before horizon: Timestamp) {
        var i = feeds.endIndex
        while i > feeds.startIndex {
            i -= 1
            // Read through the subscript, so no second reference makes the edit below copy the list.
            let count = feeds[i].samples.count
            let expired = feeds[i].samples.firstIndex { $0.timestamp > horizon } ?? count
            if expired == count {
                if let l = lostAt[feeds[i].gateway], l <= horizon { lostAt[feeds[i].gateway] = nil }
                feeds.remove(at: i)
            } else if expired > 0 {
                feeds[i].samples.removeFirst(expired)
            }
        }
    }
}
