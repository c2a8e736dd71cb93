import Vocabulary

/// `ranging.filter`: how a beacon's RSSI readings are smoothed before a distance is estimated.
package struct FilterSettings: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        case none, median
        case trimmedMean = "trimmed_mean"
        case kalman
    }
    package var kind: Kind = .median
    /// Time window for median / trimmed mean.
    package var window: TimeSpan = .seconds(5)
    /// Fraction trimmed from each end by the trimmed mean.
    package var trim: Double = 0.1
    /// Kalman process noise (RSSI domain).
    package var processNoise: Double = 0.008
    /// Kalman measurement noise (RSSI domain).
    package var measurementNoise: Double = 4
    package init() {}
}
