import Vocabulary

/// The belief engine's state for one beacon (`LocatorTrack`): where it is likely to be, when that
/// was last updated and on what evidence, and what the next tick must decide though no message comes.
struct TrackBelief: Sendable {
    /// Where the beacon is likely to be.
    var rooms = RoomBelief()
    /// The tick of the last update.
    var tick: Timestamp?
    /// The decision can change at the next tick with no message (the belief moves, or a count of
    /// ticks runs).
    var moving = false
    /// Ticks a place on another floor has led.
    var floorLead = 0
    /// The last update's evidence and offline gateways, and whether that update left the belief
    /// where it was (its fixed point for that evidence): further ticks of the same evidence change
    /// nothing, so a track decided only when due believes what one decided every tick does.
    var evidence: [RoomBelief.Evidence] = []
    var offline: Set<String> = []
    var settled = false

    /// Takes tick `t`'s evidence; returns how far the belief moved.
    mutating func update(
        at t: Timestamp, evidence: [RoomBelief.Evidence], offline: Set<String>, interval: TimeSpan,
        _ model: RoomBelief.Model
    ) -> Double {
        let change: Double
        if settled, evidence == self.evidence, offline == self.offline {
            rooms.repeated()
            change = 0
        } else {
            // After a settled stretch the belief stood at its fixed point until the last tick: one
            // tick's move from there, however long ago it was last updated.
            let seconds = settled ? interval.seconds : tick.map { (t - $0).seconds } ?? interval.seconds
            change = rooms.update(seconds: seconds, evidence: evidence, offline: offline, model)
            self.evidence = evidence
            self.offline = offline
        }
        tick = t
        settled = change <= model.settled
        return change
    }
}
