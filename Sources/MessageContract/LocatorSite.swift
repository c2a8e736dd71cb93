import BeaconCore
import Vocabulary

/// The site as a locator knows it: the offsets fitted from gateways hearing each other at known
/// positions, and the site plan's position estimator.
package struct LocatorSite: Sendable {
    /// Gateways hearing each other at known positions: the fitted offsets (docs/locator.md,
    /// "Calibrating a site").
    package internal(set) var calibrator = SiteCalibrator()
    /// The site plan's position estimator (`locator.site_plan`), built once per plan.
    private var estimator: PositionEstimator?

    init(_ settings: LocatorSettings) {
        calibrator.place(ForeignSource.positions(settings.foreignSources))
        estimator = Self.estimator(settings)
    }

    /// New settings: the foreign nodes' positions, and the estimator again when its plan or model changed.
    mutating func reconfigure(_ settings: LocatorSettings, was old: LocatorSettings) {
        if settings.positions.plan != old.positions.plan || settings.positions.model != old.positions.model {
            estimator = Self.estimator(settings)
        }
        calibrator.place(ForeignSource.positions(settings.foreignSources))
    }

    /// The gateways heard at the plan's survey points; nil without a plan.
    var surveyed: [String]? { estimator?.surveyed }

    /// Builds the plan's radio map with these gateways' offsets (in `surveyed`'s order) and the
    /// exponent; the estimator rebuilds it only when they moved.
    mutating func mapSurvey(offsets: [Double], exponent: Double) {
        estimator?.map(offsets: offsets, exponent: exponent)
    }

    private static func estimator(_ settings: LocatorSettings) -> PositionEstimator? {
        settings.positions.plan.map { PositionEstimator(plan: $0, model: settings.positions.model) }
    }

    /// What the tracks need to place beacons on the site plan; nil without one. The exponent is the
    /// fitted one when the calibrator fitted one, else the plan's, else the prior.
    func placement(_ settings: LocatorSettings) -> SitePlacement? {
        guard let estimator else { return nil }
        let fitted = calibrator.fit.flatMap { $0.exponentFitted ? $0.exponent : nil }
        return SitePlacement(
            estimator: estimator,
            exponent: fitted ?? settings.positions.plan?.pathLossExponent ?? PathLossCalibration.priorExponent,
            deadband: settings.positions.deadband)
    }
}
