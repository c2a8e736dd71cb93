import Vocabulary

/// A beacon's position on the site plan (`LocatorTrack`, with `locator.site_plan`): the estimate,
/// what it was estimated from, and the rooms it gives the belief engine.
struct TrackPosition: Sendable {
    /// The position at the last tick that placed the beacon, and that tick.
    var estimate: PositionEstimator.Estimate?
    var tick: Timestamp?
    /// The evidence of the last estimate, and whether that estimate stood where the one before it
    /// did: further ticks of the same evidence would not move it, so they are not computed.
    var input: (signals: [PositionEstimator.Signal], offline: Set<String>)?
    var settled = false
    /// The belief's evidence from `estimate` with the floor's strongest signal `top` and the
    /// engine's `model`, kept while they stand (`LocatorTrack.positionEvidence`); a new estimate drops it.
    var planEvidence: (top: Double, model: RoomBelief.Model, rooms: [RoomBelief.Evidence])?

    /// A new estimate at `t`; nil: the beacon has no position, and what it was estimated from goes too.
    mutating func set(_ estimate: PositionEstimator.Estimate?, at t: Timestamp?) {
        self.estimate = estimate
        planEvidence = nil
        tick = estimate == nil ? nil : t
        if estimate == nil {
            input = nil
            settled = false
        }
    }
}
