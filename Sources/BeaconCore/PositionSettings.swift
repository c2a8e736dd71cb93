/// Positions on a floor plan (docs/locator.md, "Positions on a floor plan"): with a site plan each
/// beacon gets a position and the room whose polygon holds it.
package struct PositionSettings: Sendable, Equatable {
    /// The site drawn to scale (`locator.site_plan`); nil: rooms only.
    package var plan: SitePlan? = nil
    /// A location is published again (same room) once its position moved more than this many
    /// metres from the one last published (`locator.position_deadband`).
    package var deadband: Double = 1
    /// The position estimator's constants (not configurable: they describe radio and people).
    package var model = PositionEstimator.Model()

    package init() {}
}
