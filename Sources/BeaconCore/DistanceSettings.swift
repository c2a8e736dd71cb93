/// `ranging.distance`: the model that turns a filtered RSSI into metres.
package struct DistanceSettings: Sendable, Equatable {
    package enum Model: String, Sendable, Equatable, CaseIterable {
        /// 0.89976·r^7.7095 + 0.111 (r = rssi / measured power), r^10 below 1.
        case curveFit = "curve_fit"
        /// 10^((measured power − rssi) / (10·n)).
        case logDistance = "log_distance"
    }
    package var model: Model = .curveFit
    /// Path-loss exponent n for log_distance.
    package var exponent: Double = 2.7
    /// Used when the frame carries no measured power and no override is configured.
    package var defaultMeasuredPower: Int = -59
    package init() {}
}
