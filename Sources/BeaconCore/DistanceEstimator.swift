/// Estimates a beacon's distance ("accuracy", metres, like CLBeacon.accuracy) from RSSI.
///
/// - curve fit: ratio = rssi / measured power; ratio < 1 → ratio^10, else 0.89976·ratio^7.7095 + 0.111.
///   The de-facto iBeacon-ecosystem constants (room-assistant, Theengs, OpenMQTTGateway, HA ibeacon);
///   same shape as AltBeacon's CurveFittedDistanceCalculator.
/// - log distance: 10^((measured power − rssi) / (10·n)), n = path-loss exponent (ESPresense, n = 2.7).
package enum DistanceEstimator {
    /// Accuracy in metres, or −1 when it cannot be determined (no RSSI or no usable power).
    package static func accuracy(rssi: Double?, measuredPower: Double, settings: DistanceSettings) -> Double {
        guard let rssi, rssi.isFinite, rssi < 0, measuredPower < 0 else { return -1 }
        switch settings.model {
        case .curveFit:
            let ratio = rssi / measuredPower
            if ratio < 1 {
                let r2 = ratio * ratio
                let r4 = r2 * r2
                return r4 * r4 * r2
            }
            return 0.89976 * Numerics.pow(ratio, 7.7095) + 0.111
        case .logDistance:
            guard settings.exponent > 0 else { return -1 }
            return Numerics.exp((measuredPower - rssi) / (10 * settings.exponent) * Numerics.ln10)
        }
    }
}
