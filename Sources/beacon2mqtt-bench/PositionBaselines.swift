import BeaconCore
import Foundation
import RoomScoring

/// The simple position rules the locator's positions are compared with, on the readings each
/// receiver took: each receiver's median of the last `window` seconds, brought to the path-loss
/// model by the fit of the calibration runs (`fit`), then
/// - **nearest**: the position of the receiver heard strongest;
/// - **centroid**: the centroid of the three strongest, weighted by 1/d² of their model distances;
/// - **least squares**: plain linear least-squares multilateration from every receiver's distance
///   (the first receiver's circle subtracted from the others'), the nearest receiver with fewer
///   than three.
struct PositionBaselines {
    static let names = ["nearest receiver", "weighted centroid (3 strongest)", "least-squares multilateration"]

    var receivers: [SitePosition]
    var offsets: [Double]
    var exponent: Double
    var measuredPower: Double
    var beaconHeight: Double
    var window = 4.0
    /// Per receiver, its readings in time order.
    var readings: [[StrongestReceiver.Reading]]

    /// The three baselines' positions at `time` (nil: no reading in the window).
    func positions(at time: Double) -> [(x: Double, y: Double)]? {
        var heard: [(k: Int, rssi: Double, distance: Double)] = []
        for k in readings.indices {
            let values = readings[k].filter { $0.time > time - window && $0.time <= time }.map(\.rssi)
            guard !values.isEmpty else { continue }
            let rssi = PathLossCalibration.median(values) + offsets[k]
            let d = pow(10, (measuredPower - rssi) / (10 * exponent))
            heard.append((k, rssi, d))
        }
        guard !heard.isEmpty else { return nil }
        heard.sort { $0.rssi > $1.rssi }
        let nearest = (receivers[heard[0].k].x, receivers[heard[0].k].y)
        var (sw, sx, sy) = (0.0, 0.0, 0.0)
        for h in heard.prefix(3) {
            let w = 1 / max(h.distance * h.distance, 0.01)
            sw += w
            sx += w * receivers[h.k].x
            sy += w * receivers[h.k].y
        }
        return [nearest, (sx / sw, sy / sw), leastSquares(heard) ?? nearest]
    }

    /// Linear least squares on the circles' differences; horizontal distances from the slant ones.
    private func leastSquares(_ heard: [(k: Int, rssi: Double, distance: Double)]) -> (x: Double, y: Double)? {
        guard heard.count >= 3 else { return nil }
        let horizontal = heard.map { h -> Double in
            let dz = receivers[h.k].z - beaconHeight
            return max(h.distance * h.distance - dz * dz, 0.01).squareRoot()
        }
        let a0 = receivers[heard[0].k]
        var (s11, s12, s22, b1, b2) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for i in 1..<heard.count {
            let a = receivers[heard[i].k]
            let (ax, ay) = (2 * (a.x - a0.x), 2 * (a.y - a0.y))
            let b =
                horizontal[0] * horizontal[0] - horizontal[i] * horizontal[i] + a.x * a.x - a0.x * a0.x + a.y * a.y
                - a0.y * a0.y
            s11 += ax * ax
            s12 += ax * ay
            s22 += ay * ay
            b1 += ax * b
            b2 += ay * b
        }
        let det = s11 * s22 - s12 * s12
        guard abs(det) > 1e-9 else { return nil }
        return ((s22 * b1 - s12 * b2) / det, (s11 * b2 - s12 * b1) / det)
    }

    /// The receivers' offsets and the exponent fitted on the runs marked `calibration`: every row's
    /// reading at its true distance (`PathLossCalibration`, as the locator fits gateways).
    static func fit(
        _ runs: [SiteRecording], receivers: [SitePosition], ids: [String], measuredPower: Double, beaconHeight: Double
    ) -> PathLossCalibration.Fit? {
        var observations: [PathLossCalibration.Observation] = []
        for run in runs where run.use == "calibration" {
            for row in run.rows {
                for (k, rssi) in row.rssi.enumerated() {
                    guard let rssi else { continue }
                    let distance = receivers[k].distance(to: SitePosition(x: row.x, y: row.y, z: beaconHeight))
                    observations.append(
                        .init(receiver: ids[k], distance: distance, rssi: rssi, measuredPower: measuredPower))
                }
            }
        }
        return PathLossCalibration.fit(observations)
    }
}
