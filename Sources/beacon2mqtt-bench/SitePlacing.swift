import BeaconConfig
import BeaconCore
import Foundation
import RoomScoring

/// The location bench's positions for a site with a site plan (`SiteDescription.sitePlan`): the
/// receivers' offsets and the path-loss exponent fitted on the runs marked `calibration` only, given
/// to the locator (`locator.rssi_offset`, the plan's `path_loss_exponent`) and to the baselines
/// alike, so every run is scored with what a site would have fitted beforehand.
struct SitePlacing {
    var plan: SitePlan
    var fit: PathLossCalibration.Fit
    var receivers: [SitePosition]
    var offsets: [Double]
    var measuredPower: Double
    /// The `locator` keys of the positioning locator, a YAML flow mapping.
    var locatorKeys: String

    /// nil when the site has no plan.
    init?(site: SiteDescription, runs: [SiteRecording], scratch: ScratchDirectory) throws(BenchFailure) {
        guard let path = site.sitePlan else { return nil }
        do { plan = try SitePlanFile.load(path: path) } catch { throw BenchFailure("\(error)") }
        var receivers: [SitePosition] = []
        for r in site.receivers {
            guard let g = plan.gateway(r.gateway) else {
                throw BenchFailure("\(path): receiver \(r.gateway) is not among the plan's gateways")
            }
            receivers.append(g.position)
        }
        self.receivers = receivers
        measuredPower = Double(site.measuredPower)
        let height = PositionEstimator.Model().beaconHeight
        guard
            let fit = PositionBaselines.fit(
                runs, receivers: receivers, ids: site.receivers.map(\.gateway), measuredPower: measuredPower,
                beaconHeight: height)
        else { throw BenchFailure("\(site.name): no calibration run to fit the path loss on") }
        self.fit = fit
        offsets = site.receivers.map { fit.offsets[$0.gateway] ?? 0 }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchFailure("cannot read \(path)")
        }
        let fitted = try scratch.write(
            text + "\npath_loss_exponent: \(BenchReport.formatted(fit.exponent, decimals: 3))\n",
            to: "site-plan-fitted.yaml")
        let offsetKeys = zip(site.receivers, offsets).map {
            "\(LocationBench.quoted($0.gateway)): \(BenchReport.formatted($1, decimals: 2))"
        }
        locatorKeys =
            "{site_plan: \(LocationBench.quoted(fitted)), position_deadband: 0, "
            + "rssi_offset: {\(offsetKeys.joined(separator: ", "))}}"
    }

    func baselines(_ readings: [[StrongestReceiver.Reading]]) -> PositionBaselines {
        PositionBaselines(
            receivers: receivers, offsets: offsets, exponent: fit.exponent, measuredPower: measuredPower,
            beaconHeight: PositionEstimator.Model().beaconHeight, readings: readings)
    }

    /// What was fitted, for the report.
    var summary: String {
        "positions: fitted on the calibration runs (\(fit.observations) readings): path-loss exponent "
            + "\(BenchReport.formatted(fit.exponent, decimals: 2)), offsets "
            + offsets.map { BenchReport.formatted($0, decimals: 1) }.joined(separator: " / ")
            + " dB, residual \(BenchReport.formatted(fit.residual, decimals: 1)) dB; the locator publishes every move "
            + "(position_deadband 0)"
    }
}
