/// The plan's surveyed radio map (docs/locator.md, "A surveyed radio map"): walls and furniture
/// make a gateway read some dB off the path-loss model in places, the same every time, which no
/// straight model can know. At each survey point the residual (what the gateway published there,
/// with the locator's offset, minus what the model expects) is measured; a cell's expected level
/// becomes the model's plus
///
///     R = Σ w·residual / (Σ w + surveyShrink),  w = exp(−d² / 2·surveyKernel²)
///
/// over the readings of the points that heard the gateway (a point weighs as many as it
/// averages), d the distance from the cell to the point. Without
/// survey points R is 0, and the model alone places the beacon.
///
/// Where the map has measured the level, a reading scatters about it by what varies from one
/// visit to the next (`surveyScatter`), no longer by the model's `shadowing`: the Cauchy width
/// there is s² = scatter² + (shadowing² − scatter²) · shrink / (Σ w + shrink), and each term is
/// weighed as a density (s / shadowing times the model's), so a narrow cell that explains a
/// reading outweighs a wide one that merely allows it.
extension PositionEstimator {
    /// What the radio maps were built with: the offsets of `surveyed` in its order, and the exponent.
    struct MapKey: Sendable, Equatable {
        var offsets: [Double]
        var exponent: Double
    }

    /// Kernel widths beyond which a survey point weighs nothing (e^−8 beside a shrink of a few).
    static let surveyReach = 4.0

    /// Builds each surveyed floor's radio map with the locator's offsets (of `surveyed`, in its
    /// order; 0 for one without) and path-loss exponent. Nothing to do when they are those it was
    /// built with, so the locator calls it every tick and it rebuilds only when a fit moves.
    package mutating func map(offsets: [Double], exponent: Double) {
        let key = MapKey(offsets: offsets, exponent: exponent)
        guard !surveyed.isEmpty, key != mappedWith else { return }
        mappedWith = key
        let offset = Dictionary(uniqueKeysWithValues: zip(surveyed, offsets))
        for name in floors.keys where !floors[name]!.survey.isEmpty {
            (floors[name]!.mapped, floors[name]!.widths) = Self.radioMap(
                floors[name]!, offsets: offset, exponent: exponent, model: model)
        }
    }

    /// The floor's `logDistance2` with its radio map in it: where the model expects
    /// `−slope · ln d²`, the map expects that plus R, which is the model's level at ln d² − R / slope;
    /// and per cell and gateway the Cauchy term's width (`Floor.widths`).
    static func radioMap(
        _ f: Floor, offsets: [String: Double], exponent: Double, model: Model
    ) -> (distances: [Double], widths: [Width]) {
        let stride = f.gateways.count
        let slope = 10 * exponent / Numerics.ln10 / 2  // dB per unit of ln(d²)
        var sum = [Double](repeating: 0, count: f.logDistance2.count)
        var weight = sum
        let reach = surveyReach * model.surveyKernel
        for p in f.survey {
            // Per gateway heard there: its index and the reading's residual from the model.
            var residuals: [(index: Int, dB: Double)] = []
            for (k, g) in f.gateways.enumerated() {
                guard let rssi = p.rssi[g.id] else { continue }
                let (dx, dy, dz) = (
                    p.point.x - g.position.x, p.point.y - g.position.y, g.position.z - model.beaconHeight
                )
                let level = rssi + (offsets[g.id] ?? 0) - p.power
                residuals.append((k, level + slope * Numerics.log(max(dx * dx + dy * dy + dz * dz, 0.01))))
            }
            let columns = squares(
                p.point.x - reach, p.point.x + reach, from: f.origin.x, cell: model.cell, within: 0..<f.columns)
            let rows = squares(
                p.point.y - reach, p.point.y + reach, from: f.origin.y, cell: model.cell, within: 0..<f.rows)
            for row in rows {
                for column in columns {
                    let i = Int(f.squares[row * f.columns + column])
                    if i < 0 { continue }
                    let (dx, dy) = (f.xs[i] - p.point.x, f.ys[i] - p.point.y)
                    let d2 = dx * dx + dy * dy
                    if d2 > reach * reach { continue }
                    let w = Double(p.readings) * Numerics.exp(-d2 / (2 * model.surveyKernel * model.surveyKernel))
                    for r in residuals {
                        sum[i * stride + r.index] += w * r.dB
                        weight[i * stride + r.index] += w
                    }
                }
            }
        }
        var mapped = f.logDistance2
        for j in mapped.indices where weight[j] > 0 {
            mapped[j] -= sum[j] / (weight[j] + model.surveyShrink) / slope
        }
        let wide = model.shadowing * model.shadowing
        let narrow = min(model.surveyScatter * model.surveyScatter, wide)
        let widths = weight.map { w in
            Width(model, width2: narrow + (wide - narrow) * model.surveyShrink / (w + model.surveyShrink))
        }
        return (mapped, widths)
    }
}
