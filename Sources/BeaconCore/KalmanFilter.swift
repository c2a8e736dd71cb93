/// A one-dimensional Kalman filter over RSSI (constant-signal model), as room-assistant applies it.
///
/// Defaults: process noise 0.008, measurement noise 4 (room-assistant bluetooth-low-energy.config.ts).
/// The first sample initialises the estimate with covariance = measurement noise.
package struct KalmanFilter: Sendable, Equatable {
    package var processNoise: Double
    package var measurementNoise: Double
    package private(set) var estimate: Double?
    package private(set) var covariance: Double = 0

    package init(processNoise: Double, measurementNoise: Double) {
        self.processNoise = processNoise
        self.measurementNoise = measurementNoise
    }

    /// Folds in one measurement and returns the new estimate.
    @discardableResult
    package mutating func update(_ z: Double) -> Double {
        guard let x = estimate else {
            estimate = z
            covariance = measurementNoise
            return z
        }
        let predicted = covariance + processNoise
        let gain = predicted / (predicted + measurementNoise)
        let next = x + gain * (z - x)
        estimate = next
        covariance = predicted - gain * predicted
        return next
    }

    package mutating func reset() {
        estimate = nil
        covariance = 0
    }
}
