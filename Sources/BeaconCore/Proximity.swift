/// Coarse distance class, like CLProximity.
///
/// Apple publishes no metre thresholds; the defaults (immediate < 0.5 m, near ≤ 4.0 m) are the
/// Radius Networks android-ibeacon-service ones (IBeacon.java `calculateProximity`).
package enum Proximity: String, Sendable, Equatable, CaseIterable {
    case unknown, immediate, near, far

    /// Classifies an accuracy in metres; a negative accuracy means "could not be determined".
    package init(accuracy: Double, thresholds: ProximityThresholds) {
        if accuracy < 0 || !accuracy.isFinite {
            self = .unknown
        } else if accuracy < thresholds.immediate {
            self = .immediate
        } else if accuracy <= thresholds.near {
            self = .near
        } else {
            self = .far
        }
    }
}
