/// Rooms weighed by their fingerprints (docs/locator.md, "Room fingerprints"): on the floor of the
/// strongest gateway, when the fingerprints cover it, each room is as likely as its fingerprint
/// explains the tick's signals, in place of the evidence of the gateways' own rooms.
extension LocatorTrack {
    /// The belief engine's evidence with the rooms of the strongest gateway's floor weighed by
    /// `fingerprints` on what each gateway `published` (its signal without the locator's
    /// calibration, which a later calibration would otherwise move against the fingerprints); the
    /// evidence of other floors as it is (floors still weigh against each other by signal). As it
    /// is too when no gateway with a level hears the beacon. `power`: the beacon's measured power,
    /// which the fingerprints weigh against the taught beacon's.
    static func fingerprintEvidence(
        _ evidence: [RoomBelief.Evidence], published: [(gateway: String, signal: Double)],
        _ fingerprints: RoomFingerprints, offline: Set<String>, power: Double? = nil, _ model: RoomBelief.Model
    ) -> [RoomBelief.Evidence] {
        guard var strongest = evidence.first else { return evidence }
        for e in evidence.dropFirst() where e.signal > strongest.signal { strongest = e }
        let floor = strongest.place.floor
        // The floor's signals: all of them, as a rule (no copy).
        let elsewhere = evidence.count { $0.place.floor != floor }
        var signals = published
        if elsewhere > 0 {
            signals = []
            for (e, p) in zip(evidence, published) where e.place.floor == floor { signals.append(p) }
        }
        // Empty too on a floor the fingerprints do not cover.
        let shares = fingerprints.shares(signals, on: floor, offline: offline, power: power)
        guard !shares.isEmpty else { return evidence }
        let rooms = Self.evidence(shares: shares, top: strongest.signal, model)
        guard elsewhere > 0 else { return rooms }
        var out: [RoomBelief.Evidence] = []
        out.reserveCapacity(elsewhere + rooms.count)
        for e in evidence where e.place.floor != floor { out.append(e) }
        out.append(contentsOf: rooms)
        return out
    }
}
