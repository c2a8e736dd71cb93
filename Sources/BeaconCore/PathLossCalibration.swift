/// Fits a site's radio from readings taken at known distances: each gateway's receive offset and
/// the site's path-loss exponent, for the log-distance model
///
///     rssi = measured power − offset − 10 · n · log10(d)
///
/// (measured power: the transmitter's RSSI at 1 m; offset: what the receiver adds on its own, so the
/// locator *adds* `offsets[gateway]` to bring it back to the model). Gateways that advertise at known
/// positions give such readings of each other (docs/locator.md, "Calibrating a site").
///
/// Robust least squares: the exponent is the within-gateway regression slope of rssi on log10(d)
/// (each gateway's own intercept takes its offset), refitted with Huber weights (k = 1.345 robust σ,
/// σ from the median absolute residual) so a reflection or a person in the way does not pull the
/// fit. Pure: no clock, no I/O.
package enum PathLossCalibration {
    /// One pair of gateways (or a beacon at a known place): what `receiver` heard at `distance`.
    package struct Observation: Sendable, Equatable {
        package var receiver: String
        /// Metres.
        package var distance: Double
        /// dBm, as the receiver published it (its own `gateway.rssi_offset` included).
        package var rssi: Double
        /// The transmitter's RSSI at 1 m, dBm.
        package var measuredPower: Double

        package init(receiver: String, distance: Double, rssi: Double, measuredPower: Double) {
            self.receiver = receiver
            self.distance = distance
            self.rssi = rssi
            self.measuredPower = measuredPower
        }
    }

    package struct Fit: Sendable, Equatable {
        /// dB to add to each gateway's RSSI (gateway id → dB).
        package var offsets: [String: Double]
        package var exponent: Double
        /// Whether the readings spanned enough distances to fit the exponent; otherwise it is the prior.
        package var exponentFitted: Bool
        /// Robust spread of what the model leaves unexplained, dB (1.4826 × median absolute residual).
        package var residual: Double
        /// Observations the fit used.
        package var observations: Int
    }

    /// The exponent the radio of a building is assumed to have before anything is fitted
    /// (`ranging.distance.exponent`'s log-distance default; ESPresense's absorption 2.7 is close).
    package static let priorExponent = 2.0
    /// Physically plausible exponents (free space 2 … heavily obstructed 6, ITU-R P.1238 ~1.6 in
    /// corridors); a fit outside keeps the prior.
    package static let plausibleExponents = 1.2...6.0
    /// The smallest spread of log10(distance) within gateways (standard deviation) that fits an
    /// exponent: 0.05 is distances differing by about 12 %.
    package static let minimumSpread = 0.05

    /// Fits offsets and exponent; nil without observations. Distances below 0.1 m are read as 0.1 m.
    package static func fit(_ observations: [Observation], priorExponent: Double = priorExponent) -> Fit? {
        guard !observations.isEmpty else { return nil }
        let receivers = Array(Set(observations.map(\.receiver))).sorted()
        let index = Dictionary(uniqueKeysWithValues: receivers.enumerated().map { ($1, $0) })
        let group = observations.map { index[$0.receiver]! }
        let logD = observations.map { log10(max($0.distance, 0.1)) }
        let y = observations.map { $0.rssi - $0.measuredPower }
        var weights = [Double](repeating: 1, count: observations.count)
        var slope = -10 * priorExponent
        var fitted = false
        var intercepts = [Double](repeating: 0, count: receivers.count)
        var sigma = 0.0
        for _ in 0..<20 {
            // Weighted means per gateway, then the pooled within-gateway slope.
            var sw = [Double](repeating: 0, count: receivers.count)
            var sx = sw
            var sy = sw
            for i in observations.indices {
                sw[group[i]] += weights[i]
                sx[group[i]] += weights[i] * logD[i]
                sy[group[i]] += weights[i] * y[i]
            }
            let mx = sw.indices.map { sw[$0] > 0 ? sx[$0] / sw[$0] : 0 }
            let my = sw.indices.map { sw[$0] > 0 ? sy[$0] / sw[$0] : 0 }
            var sxx = 0.0
            var sxy = 0.0
            for i in observations.indices {
                let dx = logD[i] - mx[group[i]]
                sxx += weights[i] * dx * dx
                sxy += weights[i] * dx * (y[i] - my[group[i]])
            }
            let total = sw.reduce(0, +)
            let candidate = sxx > 0 ? sxy / sxx : 0
            fitted =
                total > 0 && (sxx / total).squareRoot() >= minimumSpread
                && plausibleExponents.contains(-candidate / 10)
            slope = fitted ? candidate : -10 * priorExponent
            intercepts = sw.indices.map { my[$0] - slope * mx[$0] }
            // Huber weights from the residuals.
            let residuals = observations.indices.map { y[$0] - intercepts[group[$0]] - slope * logD[$0] }
            sigma = 1.4826 * median(residuals.map(abs))
            let k = 1.345 * max(sigma, 0.5)
            let next = residuals.map { abs($0) <= k ? 1 : k / abs($0) }
            if zip(next, weights).allSatisfy({ abs($0 - $1) < 1e-6 }) { break }
            weights = next
        }
        var offsets: [String: Double] = [:]
        for (r, name) in receivers.enumerated() { offsets[name] = -intercepts[r] }
        return Fit(
            offsets: offsets, exponent: -slope / 10, exponentFitted: fitted, residual: sigma,
            observations: observations.count)
    }

    /// The middle value (the mean of the two middle ones); 0 for none.
    package static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        let mid = s.count / 2
        return s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
    }

    static func log10(_ x: Double) -> Double { Numerics.log(x) / Numerics.ln10 }
}
