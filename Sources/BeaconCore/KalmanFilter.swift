/// A one-dimensional Kalman filter over RSSI (constant-signal model), as room-assistant applies it.
///
/// Defaults: process noise 0.008, measurement noise 4 (room-assistant bluetooth-low-energy.config.ts).
/// The first sample initialises the estimate with covariance = measurement noise.
public struct KalmanFilter: Sendable, Equatable {
    public var processNoise: Double
    public var measurementNoise: Double
    public private(set) var estimate: Double?
    public private(set) var covariance: Double = 0

    public init(processNoise: Double, measurementNoise: Double) {
        self.processNoise = processNoise
        self.measurementNoise = measurementNoise
    }

    /// Folds in one measurement and returns the new estimate.
    @discardableResult
    public mutating func update(_ z: Double) -> Double {
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

    public mutating func reset() {
        estimate = nil
        covariance = 0
    }
}
