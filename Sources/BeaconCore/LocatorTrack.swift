import BeaconWire

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

        package init(timestamp: Timestamp, distance: Double, floor: String?, room: String?) {
            self.timestamp = timestamp
            self.distance = distance
            self.floor = floor
            self.room = room
        }
    }

    /// A gateway whose readings count at a tick.
    struct Candidate {
        var gateway: String
        /// Its fresh readings, oldest first, at most `historyWindow`; never empty.
        var history: ArraySlice<Sample>
        var latest: Sample { history[history.endIndex - 1] }
    }

    /// Readings kept per gateway: the history window plus room for readings stamped after the tick
    /// being decided.
    static let capacity = 16

    package var name: String?
    package private(set) var samples: [String: [Sample]] = [:]
    /// Gateway → when it reported the beacon gone (its exit event); its older readings stop counting.
    private var lostAt: [String: Timestamp] = [:]
    package private(set) var location: LocatorLocation?
    /// Newest reading stamped at or before the last decided tick.
    private var seen: Timestamp?
    /// Set by a restore; the first tick after it starts the grace a restored owner has to report.
    private var restoredPending = false
    private var restoredTick: Timestamp?
    /// Timestamp of the owner's reading last fed to mqtt_room.
    package var lastFed: Timestamp?

    package init() {}

    /// Keeps each gateway's readings in timestamp order (a reading with a timestamp already held
    /// replaces it). Edits the list in place: copying it out of the dictionary and back would copy
    /// its storage on every reading.
    package mutating func insert(_ s: Sample, gateway: String) {
        Self.insert(s, into: &samples[gateway, default: []])
    }

    private static func insert(_ s: Sample, into list: inout [Sample]) {
        if let i = list.lastIndex(where: { $0.timestamp <= s.timestamp }) {
            if list[i].timestamp == s.timestamp { list[i] = s } else { list.insert(s, at: i + 1) }
        } else {
            list.insert(s, at: 0)
        }
        if list.count > capacity { list.removeFirst(list.count - capacity) }
    }

    /// Every time this track holds moves by `delta`: the locator's timeline stepped with its wall clock.
    package mutating func shift(by delta: TimeSpan) {
        samples = samples.mapValues { $0.map { var s = $0; s.timestamp = s.timestamp + delta; return s } }
        lostAt = lostAt.mapValues { $0 + delta }
        if var l = location {
            l.since = l.since + delta
            l.lastSeen = l.lastSeen.map { $0 + delta }
            location = l
        }
        seen = seen.map { $0 + delta }
        restoredTick = restoredTick.map { $0 + delta }
        lastFed = lastFed.map { $0 + delta }
    }

    package mutating func lose(gateway: String, at t: Timestamp) {
        if let old = lostAt[gateway], old >= t { return }
        lostAt[gateway] = t
    }

    package mutating func restore(_ l: LocatorLocation) {
        guard location == nil else { return }
        location = l
        restoredPending = true
    }

    /// Gateways whose readings count at `t`, sorted by id.
    func candidates(at t: Timestamp, _ s: LocatorSettings, offline: Set<String>) -> [Candidate] {
        var out: [Candidate] = []
        for gateway in samples.keys.sorted() where !offline.contains(gateway) {
            let fresh = Self.fresh(samples[gateway]!, at: t, staleAfter: s.staleAfter, lost: lostAt[gateway])
            guard !fresh.isEmpty else { continue }
            out.append(Candidate(gateway: gateway, history: fresh.suffix(max(1, s.historyWindow))))
        }
        return out
    }

    /// The readings of `list` (in timestamp order) that count at `t`: stamped at or before `t`, less
    /// than `staleAfter` old, and not older than the gateway's exit event if it reported one by `t`.
    /// Each bound is monotonic in the timestamp, so they are one contiguous slice of the list.
    package static func fresh(_ list: [Sample], at t: Timestamp, staleAfter: TimeSpan, lost: Timestamp?) -> ArraySlice<Sample> {
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

    /// Decides tick `t`; returns the previous and the new location when it changed.
    package mutating func decide(at t: Timestamp, _ s: LocatorSettings, offline: Set<String>)
        -> (previous: LocatorLocation?, current: LocatorLocation)?
    {
        if restoredPending {
            restoredPending = false
            restoredTick = t
        }
        for list in samples.values {
            if let newest = list.last(where: { $0.timestamp <= t })?.timestamp, seen.map({ newest > $0 }) ?? true {
                seen = newest
            }
        }
        // Pruned first: what goes is never fresh at t, and the candidates' slices then share the
        // lists' storage without a later edit copying it.
        prune(before: t - s.staleAfter)
        let cands = candidates(at: t, s, offline: offline)
        guard !cands.isEmpty else { return away(at: t, s) }
        let previous = location
        guard let owner = previous?.gateway else { return moved(to: preferred(cands, s), cands, at: t) }
        guard let incumbent = cands.first(where: { $0.gateway == owner }) else {
            // A restored owner gets one stale period to send its first reading before it counts as gone.
            if samples[owner] == nil, let r = restoredTick, t < r + s.staleAfter, !offline.contains(owner),
                lostAt[owner] == nil
            {
                return nil
            }
            return moved(to: preferred(cands, s), cands, at: t)
        }
        restoredTick = nil
        guard let since = previous?.since, t >= since + s.minDwell else { return nil }
        let challengers = cands.filter { $0.gateway != owner && qualifies($0, over: incumbent, cands, s) }
        guard let c = challengers.min(by: Self.nearer) else { return nil }
        return moved(to: c, cands, at: t)
    }

    private static func nearer(_ a: Candidate, _ b: Candidate) -> Bool {
        (a.latest.distance, a.gateway) < (b.latest.distance, b.gateway)
    }

    /// The hand-over rule (README, “Locating beacons floor by floor”): outright (≥ 30 % closer now) or sustained (≥ 15 %
    /// closer in every reading of a history of ≥ 3); across floors, outright must hold on the last
    /// `floor_confirmations` readings, and a sustained-only win is refused when the owner's floor has
    /// more gateways seeing the beacon.
    private func qualifies(_ c: Candidate, over o: Candidate, _ all: [Candidate], _ s: LocatorSettings) -> Bool {
        let outrightLimit = (1 - s.switchOutright) * o.latest.distance
        let outright = c.latest.distance <= outrightLimit
        let ownerBest = o.history.map(\.distance).min()!
        let sustained =
            c.history.count >= max(2, s.minHistory)
            && c.history.allSatisfy { $0.distance <= (1 - s.switchSustained) * ownerBest }
        if c.latest.floor == o.latest.floor { return outright || sustained }
        let confirmations = max(2, s.floorConfirmations)
        if c.history.count >= confirmations,
            c.history.suffix(confirmations).allSatisfy({ $0.distance <= outrightLimit })
        {
            return true
        }
        guard sustained else { return false }
        let onFloor = { (floor: String?) in all.filter { $0.latest.floor == floor }.count }
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
        let close = perFloor.filter { best.latest.distance > (1 - s.switchOutright) * $0.nearest.latest.distance }
        return close.min { a, b in
            a.count != b.count ? a.count > b.count : Self.nearer(a.nearest, b.nearest)
        }?.nearest ?? best
    }

    private mutating func moved(to c: Candidate, _ cands: [Candidate], at t: Timestamp)
        -> (previous: LocatorLocation?, current: LocatorLocation)?
    {
        let previous = location
        let inverse = { (d: Double) in 1 / max(d, 0.1) }
        let total = cands.reduce(0) { $0 + inverse($1.latest.distance) }
        // Rounded as published, so a location read back from its retained message compares equal.
        let centi = { (v: Double) in (v * 100).rounded() / 100 }
        let next = LocatorLocation(
            gateway: c.gateway, floor: c.latest.floor, room: c.latest.room, accuracy: centi(c.latest.distance),
            since: t, confidence: centi(inverse(c.latest.distance) / total), lastSeen: seen)
        restoredTick = nil
        if let p = previous, p.gateway == next.gateway, p.floor == next.floor, p.room == next.room { return nil }
        location = next
        return (previous, next)
    }

    private mutating func away(at t: Timestamp, _ s: LocatorSettings)
        -> (previous: LocatorLocation?, current: LocatorLocation)?
    {
        guard let previous = location, previous.isHome else { return nil }
        // A restored location counts from the later of its last_seen and the first tick after the restore.
        let last = [seen, previous.lastSeen, restoredTick].compactMap { $0 }.max() ?? previous.since
        let at = last + s.awayTimeout
        guard t >= at else { return nil }
        let next = LocatorLocation(
            gateway: nil, floor: nil, room: nil, accuracy: nil, since: at, confidence: nil,
            lastSeen: seen ?? previous.lastSeen)
        location = next
        restoredTick = nil
        return (previous, next)
    }

    /// Drops readings stamped at or before `horizon` (each list is in timestamp order, so they are
    /// its head), and the gateways left without any. Lists with nothing to drop are not touched.
    private mutating func prune(before horizon: Timestamp) {
        for (gateway, list) in samples {
            let expired = list.firstIndex { $0.timestamp > horizon } ?? list.endIndex
            if expired == list.endIndex {
                samples[gateway] = nil
                if let l = lostAt[gateway], l <= horizon { lostAt[gateway] = nil }
            } else if expired > 0 {
                samples[gateway]!.removeFirst(expired)
            }
        }
    }
}
