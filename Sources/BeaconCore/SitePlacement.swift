/// What the locator needs at a tick to place beacons on a site plan (`locator.site_plan`): the
/// plan's estimator, the path-loss exponent in force (the locator's fit, else the plan's, else the
/// prior), and how far a position must move before its location is published again.
package struct SitePlacement: Sendable {
    package var estimator: PositionEstimator
    package var exponent: Double
    /// Metres (`locator.position_deadband`).
    package var deadband: Double

    package init(estimator: PositionEstimator, exponent: Double, deadband: Double) {
        self.estimator = estimator
        self.exponent = exponent
        self.deadband = deadband
    }
}
