import Vocabulary

/// A beacon's position on the site plan (`LocatorTrack`, with `locator.site_plan`): the estimate,
/// what it was estimated from, and the rooms it gives the belief engine.
///
/// What every tick reads (the evidence, the rooms kept) is held in fields of their own rather
/// than in optionals of several: reading through an optional copies all of it, at each beacon
/// each tick.
struct TrackPosition: Sendable {
    /// The position at the last tick that placed the beacon, and that tick.
    private(set) var estimate: PositionEstimator.Estimate?
    var tick: Timestamp?
    /// The evidence of the last estimate (none without one), and whether that estimate stood
    /// where the one before it did: further ticks of the same evidence would not move it, so they
    /// are not computed.
    private(set) var signals: [PositionEstimator.Signal] = []
    private(set) var offline: Set<String> = []
    var settled = false
    /// The belief's evidence from `estimate` with the floor's strongest signal `roomsTop` and the
    /// engine's `roomsModel`, kept while they stand (`LocatorTrack.positionEvidence`); a new
    /// estimate drops it.
    private var rooms: [RoomBelief.Evidence] = []
    private var roomsTop = -Double.infinity
    private var roomsModel: RoomBelief.Model?

    /// A new estimate at `t` from `signals` and `offline`, `settled` or not; nil: the beacon has no
    /// position, and what it was estimated from goes too.
    mutating func set(
        _ estimate: PositionEstimator.Estimate?, at t: Timestamp?, signals: [PositionEstimator.Signal] = [],
        offline: Set<String> = [], settled: Bool = false
    ) {
        self.estimate = estimate
        roomsModel = nil
        rooms = []
        tick = estimate == nil ? nil : t
        self.signals = estimate == nil ? [] : signals
        self.offline = estimate == nil ? [] : offline
        self.settled = estimate != nil && settled
    }

    /// Whether `signals` and `offline` are what the last estimate was made from.
    func isEstimated(from signals: [PositionEstimator.Signal], offline: Set<String>) -> Bool {
        estimate != nil && self.signals == signals && self.offline == offline
    }

    /// Whether the position stands settled on `floor` and `cands` are the evidence it was estimated
    /// from: another estimate would give the same.
    func stands(on floor: String, _ cands: [LocatorTrack.Candidate], offline: Set<String>) -> Bool {
        guard settled, estimate?.floor == floor, signals.count == cands.count, self.offline == offline else {
            return false
        }
        for i in cands.indices where signals[i].gateway != cands[i].gateway || signals[i].rssi != cands[i].latest.signal
        {
            return false
        }
        return true
    }

    /// The rooms' evidence kept for the floor's strongest signal `top` and `model`; nil: none kept for them.
    func rooms(top: Double, _ model: RoomBelief.Model) -> [RoomBelief.Evidence]? {
        roomsModel == model && roomsTop == top ? rooms : nil
    }

    /// Keeps `rooms` as the evidence for `top` and `model` until either changes or a new estimate comes.
    mutating func keep(rooms: [RoomBelief.Evidence], top: Double, _ model: RoomBelief.Model) {
        self.rooms = rooms
        roomsTop = top
        roomsModel = model
    }

    /// The estimate as a location on `floor` carries it (rounded as published), stamped `t`; nil:
    /// no estimate on that floor.
    func point(on floor: String?, at t: Timestamp) -> LocatorLocation.Position? {
        guard let e = estimate, e.floor == floor else { return nil }
        return .init(
            x: LocatorTrack.centi(e.x), y: LocatorTrack.centi(e.y), radius: LocatorTrack.centi(e.radius), at: t)
    }
}
