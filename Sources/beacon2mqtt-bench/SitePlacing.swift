import BeaconConfig
import BeaconCore
import Foundation
import RoomScoring

/// The location bench's positions for a site with a site plan (`SiteDescription.sitePlan`): the
/// receivers' offsets and the path-loss exponent fitted on the runs marked `calibration` only, given
/// to the locator (`locator.rssi_offset`, the plan's `path_loss_exponent`) and to the baselines
/// alike, so every run is scored with what a site would have fitted beforehand. A second plan adds
/// the calibration runs as a survey (`survey:`, docs/locator.md "A surveyed radio map"): the tag's
/// readings averaged per `surveyCell` square.
struct SitePlacing {
    var plan: SitePlan
    var fit: PathLossCalibration.Fit
    var receivers: [SitePosition]
    var offsets: [Double]
    var measuredPower: Double
    /// The `locator` keys of the positioning locator, a YAML flow mapping.
    var locatorKeys: String
    /// The same with the surveyed plan.
    var surveyedKeys: String
    /// The survey's points and the rows they average.
    var surveyPoints = 0
    var surveyRows = 0
    /// The runs fitted on, by name.
    var fittedRuns: [String]

    /// Metres: the squares the calibration runs' rows are averaged in, one survey point each.
    static let surveyCell = 0.5

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
        let fittedText = text + "\npath_loss_exponent: \(BenchReport.formatted(fit.exponent, decimals: 3))\n"
        let fitted = try scratch.write(fittedText, to: "site-plan-fitted.yaml")
        fittedRuns = runs.filter { $0.use == "calibration" }.map(\.name)
        let survey = Self.survey(runs.filter { $0.use == "calibration" }, site: site, plan: plan)
        surveyPoints = survey.points.count
        surveyRows = survey.rows
        let surveyed = try scratch.write(
            fittedText + "survey:\n" + survey.points.joined(separator: "\n") + "\n", to: "site-plan-surveyed.yaml")
        let offsetKeys = zip(site.receivers, offsets).map {
            "\(YAMLText.quoted($0.gateway)): \(BenchReport.formatted($1, decimals: 2))"
        }
        let keys = { (plan: String) in
            "{site_plan: \(YAMLText.quoted(plan)), position_deadband: 0, "
                + "rssi_offset: {\(offsetKeys.joined(separator: ", "))}}"
        }
        locatorKeys = keys(fitted)
        surveyedKeys = keys(surveyed)
    }

    /// The runs' rows as survey points, YAML flow mappings: per `surveyCell` square of the plan's
    /// rooms, the mean position of the rows in it, each receiver's mean RSSI over the rows that
    /// heard it (as it heard it: the locator adds its offset), and as its `readings` the mean count
    /// of those rows, so the point weighs as the readings it stands for. A square whose mean lies
    /// in no room is left out.
    static func survey(_ runs: [SiteRecording], site: SiteDescription, plan: SitePlan) -> (points: [String], rows: Int)
    {
        struct Square {
            var x = 0.0
            var y = 0.0
            var rows = 0
            var sums: [Double]
            var heard: [Int]
        }
        let width = site.receivers.count
        var squares: [[Int]: Square] = [:]
        for row in runs.flatMap(\.rows) {
            let key = [Int((row.x / surveyCell).rounded(.down)), Int((row.y / surveyCell).rounded(.down))]
            var s =
                squares[key]
                ?? Square(sums: Array(repeating: 0, count: width), heard: Array(repeating: 0, count: width))
            s.x += row.x
            s.y += row.y
            s.rows += 1
            for (k, rssi) in row.rssi.enumerated() {
                guard let rssi else { continue }
                s.sums[k] += rssi
                s.heard[k] += 1
            }
            squares[key] = s
        }
        var points: [String] = []
        var rows = 0
        for key in squares.keys.sorted(by: { ($0[1], $0[0]) < ($1[1], $1[0]) }) {
            let s = squares[key]!
            let (x, y) = (s.x / Double(s.rows), s.y / Double(s.rows))
            let floor = site.receivers[0].floor
            guard plan.room(at: .init(x: x, y: y), floor: floor) != nil else { continue }
            let rssi = site.receivers.indices.filter { s.heard[$0] > 0 }.map {
                "\(YAMLText.quoted(site.receivers[$0].gateway)): "
                    + BenchReport.formatted(s.sums[$0] / Double(s.heard[$0]), decimals: 1)
            }
            guard !rssi.isEmpty else { continue }
            let heard = s.heard.filter { $0 > 0 }
            let readings = Int((Double(heard.reduce(0, +)) / Double(heard.count)).rounded())
            rows += s.rows
            points.append(
                "  - {floor: \(YAMLText.quoted(floor)), x: \(BenchReport.formatted(x, decimals: 2)), "
                    + "y: \(BenchReport.formatted(y, decimals: 2)), power: \(site.measuredPower), "
                    + "rssi: {\(rssi.joined(separator: ", "))}, readings: \(readings)}")
        }
        return (points, rows)
    }

    func baselines(_ readings: [[StrongestReceiver.Reading]]) -> PositionBaselines {
        PositionBaselines(
            receivers: receivers, offsets: offsets, exponent: fit.exponent, measuredPower: measuredPower,
            beaconHeight: PositionEstimator.Model().beaconHeight, readings: readings)
    }

    /// What was fitted, for the report.
    var summary: String {
        "positions: fitted on the calibration runs (\(fittedRuns.joined(separator: ", ")); \(fit.observations) readings): path-loss exponent "
            + "\(BenchReport.formatted(fit.exponent, decimals: 2)), offsets "
            + offsets.map { BenchReport.formatted($0, decimals: 1) }.joined(separator: " / ")
            + " dB, residual \(BenchReport.formatted(fit.residual, decimals: 1)) dB; survey: \(surveyPoints) points "
            + "averaging \(surveyRows) rows of the same runs (\(BenchReport.formatted(Self.surveyCell, decimals: 1)) m "
            + "squares); the locator publishes every move (position_deadband 0). Only the test runs were not fitted "
            + "on: \"all runs\" includes the runs the fit and the survey saw"
    }
}
