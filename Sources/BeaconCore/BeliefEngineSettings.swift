/// The `belief` engine's settings (docs/locator.md, "The belief engine"): every gateway's evidence
/// weighs on a belief over rooms (`RoomBelief`).
package struct BeliefEngineSettings: Sendable, Equatable {
    /// A room is named (first, or in place of another) once it is at least this likely.
    package var minConfidence: Double = 0.7
    /// Say `unknown` rather than a room when none of the named room's gateways hears the beacon
    /// (offline, or lost it), and neither that room nor another is `min_confidence` likely.
    package var allowsUnknown: Bool = true
    /// The model's constants (not configurable: they describe radio and people, not a site).
    package var model = RoomBelief.Model()
    /// The rooms as a teach-in measured them (`locator.fingerprints`): the rooms of a floor they
    /// cover are weighed by how well each explains what the gateways publish; nil: by the
    /// gateways' own rooms.
    package var fingerprints: RoomFingerprints? = nil

    package init() {}
}
