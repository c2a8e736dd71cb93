/// Where on its floor a beacon is, from what every gateway of the floor hears of it or misses
/// (docs/locator.md, "Positions on a floor plan").
///
/// A Bayes filter on a grid of the floor's rooms (`Model.cell` apart), the whole posterior carried
/// between ticks (`Belief`, an HMM's forward pass):
/// - **Evidence.** A gateway that hears the beacon at `rssi` (its calibration applied) makes each
///   cell as likely as the log-distance model `measured power − 10·n·log10(d)` explains it, with a
///   Cauchy tail (`shadowing` dB wide), so one reflected or blocked gateway cannot pull the position
///   far. A gateway of the floor that does not hear it (and is not offline) makes cells unlikely
///   where the model says it should hear the beacon above `silent`. Where the plan has survey
///   points, the expected level is the model's plus what the survey measured beside it
///   (`map(offsets:exponent:)`).
/// - **Motion.** The previous posterior spreads by `speed` metres per second between ticks (a
///   Gaussian blur on the grid), so a still beacon is held, a walking one followed, and a belief
///   split between two rooms keeps both until the evidence settles it.
/// - **Answer.** The posterior's geometric median (the point of least expected distance, in the
///   heavier part of a split belief where the mean would lie on the wall), and as error radius the
///   root-mean-square distance of the posterior from it.
///
/// Only cells inside a room are considered, so a position is never outside the plan. Pure: the
/// caller gives the time elapsed and the tick's evidence.
package struct PositionEstimator: Sendable, Equatable {
    /// The constants: they describe BLE indoors and people, not one site.
    package struct Model: Sendable, Equatable {
        /// Grid spacing, metres.
        package var cell = 0.5
        /// dB: the width of a filtered RSSI's scatter around the path-loss model (indoor shadowing, 4–8 dB).
        package var shadowing = 6.0
        /// m/s: how far a beacon's position may wander in a second (a walk is 1–1.5 m/s; most are still).
        package var speed = 1.0
        /// dBm below which no gateway hears a beacon.
        package var silent = -100.0
        /// Metres above its floor a beacon is carried (a pocket, a hand, a desk).
        package var beaconHeight = 1.0
        /// Metres a still beacon's position wanders between two ticks however close (a hand, a
        /// pocket, a body turning): the least spread of the motion step.
        package var fidget = 0.25
        /// Relative weight below which a square leaves the belief carried to the next tick and the
        /// prior's cut: a hundredth of the likeliest square's is a difference the evidence of a
        /// tick seldom reverses (a gateway 6 dB off makes ~1/20).
        package var prune = 1e-2
        /// Squares a carried belief holds at most (the heaviest): 256 squares of 0.5 m are 64 m², a
        /// room or two, and 2 kB.
        package var beliefCells = 256
        /// The share of its error radius below which a position estimated again from the same
        /// evidence counts as standing still, and is not estimated again until the evidence changes:
        /// a twentieth of a 1 m radius is 5 cm, which no reader of the position can tell from 0.
        package var settled = 0.05
        /// Metres: the width of the Gaussian kernel that spreads a survey point's residual to the
        /// cells about it, about the size of the furniture and doorways that make it.
        package var surveyKernel = 1.0
        /// How many kernel-weighted survey readings make a cell's residual half the survey's: a
        /// cell far from every point (weight near 0) keeps the model, and a lone reflected
        /// reading moves none far.
        package var surveyShrink = 3.0
        /// dB: the width of a filtered RSSI's scatter about what a survey measured at the same
        /// place, from one visit to the next (fading, a body or the beacon turning, a door): the
        /// part of `shadowing` that a map cannot take away.
        package var surveyScatter = 4.0
        package init() {}
    }

    /// A position on a floor.
    package struct Estimate: Sendable, Equatable {
        package var floor: String
        package var x: Double
        package var y: Double
        /// Root-mean-square distance of the posterior from (x, y), metres.
        package var radius: Double
        /// The posterior's share in each room of the floor that holds any, in the plan's order.
        package var rooms: [Share] = []
        /// The posterior itself, pruned, for the next tick's prior; nil: the next weighs the floor.
        package var belief: Belief?
        package init(floor: String, x: Double, y: Double, radius: Double, rooms: [Share] = [], belief: Belief? = nil) {
            self.floor = floor
            self.x = x
            self.y = y
            self.radius = radius
            self.rooms = rooms
            self.belief = belief
        }
    }

    /// How likely the beacon is in one room.
    package struct Share: Sendable, Equatable {
        package var room: String
        package var probability: Double
        package init(room: String, probability: Double) {
            self.room = room
            self.probability = probability
        }
    }

    /// What one gateway hears of the beacon: its filtered RSSI with its calibration applied, dBm.
    package struct Signal: Sendable, Equatable {
        package var gateway: String
        package var rssi: Double
        package init(gateway: String, rssi: Double) {
            self.gateway = gateway
            self.rssi = rssi
        }
    }

    /// The cells of one floor that lie in a room, and the gateways placed on it.
    struct Floor: Sendable, Equatable {
        var xs: [Double] = []
        var ys: [Double] = []
        /// Per cell, its room (an index into `rooms`).
        var cellRooms: [Int] = []
        var rooms: [String] = []
        var gateways: [SitePlan.Gateway] = []
        /// Per cell, per gateway of the floor: ln of its squared 3-D distance to a beacon there
        /// (a cell's gateways side by side, as the estimate reads them).
        var logDistance2: [Double] = []
        /// The grid the cells lie on: the centre of its first square, its columns and rows, and
        /// per square (row by row) the cell there, or −1 outside every room. A prior's box reads
        /// only its own squares.
        var origin = SitePlan.Point(x: 0, y: 0)
        var columns = 0
        var rows = 0
        var squares: [Int32] = []
        /// The plan's survey points on this floor.
        var survey: [SitePlan.SurveyPoint] = []
        /// `logDistance2` with the radio map in it: per cell and gateway, the ln d² at which the
        /// model expects the level the map does (empty: no survey, or not built yet).
        var mapped: [Double] = []
        /// Beside `mapped`, per cell and gateway, the width of its Cauchy term.
        var widths: [Width] = []

        var grid: Grid { Grid(origin: origin, columns: columns, rows: rows) }
    }

    /// A hearing gateway's Cauchy term at a cell, relative to the model's (`shadowing` wide):
    /// `scale + r² · tail` for a residual of r dB, a density s wide over one `shadowing` wide.
    struct Width: Sendable, Equatable {
        var scale: Double
        var tail: Double

        init(_ model: Model, width2: Double) {
            scale = (width2 / (model.shadowing * model.shadowing)).squareRoot()
            tail = scale / (2 * width2)
        }
    }

    /// One gateway's residual at a cell, max(base + gain · ln d², least), and whether its term
    /// takes the surveyed width (`weigh` 1: it hears the beacon). A struct, not a tuple: an array of
    /// tuples looks its type up at run time, at every estimate.
    struct Term {
        var base: Double
        var gain: Double
        var least: Double
        var weigh: Double
    }

    package let model: Model
    var floors: [String: Floor]
    /// The gateways heard at the plan's survey points (sorted): the radio map takes their offsets.
    package let surveyed: [String]
    /// What the radio maps in `floors` were built with; nil: none built.
    var mappedWith: MapKey?
    /// The floors with rooms and gateways (asked of every beacon at every tick: no floor copied).
    let covered: Set<String>

    package init(plan: SitePlan, model: Model = Model()) {
        self.model = model
        var floors: [String: Floor] = [:]
        for name in plan.floors {
            var f = Floor()
            f.gateways = plan.gateways.filter { $0.floor == name }
            f.survey = plan.survey.filter { $0.floor == name }
            let outlines = plan.rooms.filter { $0.floor == name }
            f.rooms = outlines.map(\.name)
            let points = outlines.flatMap(\.outline)
            if let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(), let minY = points.map(\.y).min(),
                let maxY = points.map(\.y).max()
            {
                f.origin = SitePlan.Point(x: minX + model.cell / 2, y: minY + model.cell / 2)
                var y = f.origin.y
                while y < maxY {
                    var x = f.origin.x
                    var column = 0
                    while x < maxX {
                        let p = SitePlan.Point(x: x, y: y)
                        if let room = outlines.firstIndex(where: { $0.contains(p) }) {
                            f.squares.append(Int32(f.xs.count))
                            f.xs.append(x)
                            f.ys.append(y)
                            f.cellRooms.append(room)
                        } else {
                            f.squares.append(-1)
                        }
                        x += model.cell
                        column += 1
                    }
                    f.columns = column
                    f.rows += 1
                    y += model.cell
                }
            }
            f.logDistance2.reserveCapacity(f.xs.count * f.gateways.count)
            for i in f.xs.indices {
                for g in f.gateways {
                    let (dx, dy, dz) = (
                        f.xs[i] - g.position.x, f.ys[i] - g.position.y, g.position.z - model.beaconHeight
                    )
                    f.logDistance2.append(Numerics.log(max(dx * dx + dy * dy + dz * dz, 0.01)))
                }
            }
            floors[name] = f
        }
        self.floors = floors
        surveyed = Set(plan.survey.flatMap(\.rssi.keys)).sorted()
        covered = Set(floors.filter { !$0.value.xs.isEmpty && !$0.value.gateways.isEmpty }.keys)
    }

    /// Whether the plan can place a beacon on `floor`: it has rooms and gateways there.
    package func covers(floor: String) -> Bool { covered.contains(floor) }

    /// The gateways the plan places on `floor` (those its estimate weighs); nil for a floor the
    /// plan cannot place a beacon on.
    package func gateways(on floor: String?) -> [String]? {
        guard let floor, covered.contains(floor) else { return nil }
        return floors[floor]?.gateways.map(\.id)
    }

    /// The beacon's position on `floor` at this tick; nil when no gateway of the floor on the plan
    /// hears it. `previous` (on the same floor, `elapsed` seconds ago) gives the motion model its
    /// belief to spread.
    package func estimate(
        floor: String, signals: [Signal], measuredPower: Double, exponent: Double, offline: Set<String> = [],
        previous: Estimate?, elapsed: Double
    ) -> Estimate? {
        guard let f = floors[floor], !f.xs.isEmpty else { return nil }
        let slope = 10 * exponent / Numerics.ln10 / 2  // dB per unit of ln(d²)
        // Per gateway of the floor, its residual at a cell is max(base + gain · ln d², least):
        // - one that hears the beacon: rssi − measured power plus the path loss there;
        // - one that misses it: the level the model expects there above `silent` (none below);
        // - one offline: nothing (0).
        // So every cell reads its gateways side by side, in one branch-free pass.
        let stride = f.gateways.count
        var terms = [Term](repeating: Term(base: 0, gain: 0, least: 0, weigh: 0), count: stride)
        var hears = false
        for (k, g) in f.gateways.enumerated() where offline.isEmpty || !offline.contains(g.id) {
            if let rssi = signals.first(where: { $0.gateway == g.id })?.rssi {
                terms[k] = Term(base: rssi - measuredPower, gain: slope, least: -.infinity, weigh: 1)
                hears = true
            } else {
                // Heard nothing where the model expects a reading: as unlikely as that reading is.
                terms[k] = Term(base: measuredPower - model.silent, gain: -slope, least: 0, weigh: 0)
            }
        }
        guard hears else { return nil }
        let prior = previous.flatMap { p in
            p.floor == floor ? p.belief.flatMap { spread($0, on: f, elapsed: elapsed) } : nil
        }
        let tail = 1 / (2 * model.shadowing * model.shadowing)
        // The squares of the prior's box (the whole grid without a prior).
        let (columns, rows) = prior.map { ($0.columns, $0.rows) } ?? (0..<f.columns, 0..<f.rows)
        // Per cell, the inverse of its posterior weight, relative (the prior's and the Cauchy terms
        // multiplied, ≥ 1): the heaviest cell's over a cell's is its weight, with no logarithm and
        // no exponential a cell. Where a product would overflow, its logarithm is folded out
        // into `folded` (none in practice: eight gateways far off the model's level at once).
        var inverse: [Double] = []
        var folded: [Double] = []
        var cells: [Int] = []
        var squares: [Int32] = []
        inverse.reserveCapacity(columns.count * rows.count)
        cells.reserveCapacity(columns.count * rows.count)
        squares.reserveCapacity(columns.count * rows.count)
        var heaviest = Double.infinity
        // The radio map holds for the exponent it was built with; another one gets the model alone.
        let surveyed = mappedWith?.exponent == exponent && !f.mapped.isEmpty
        let distances = surveyed ? f.mapped : f.logDistance2
        // A gateway's term is `scale + r² · tail`: the model's (1, `tail`), or a hearing gateway's
        // surveyed width at the cell.
        distances.withUnsafeBufferPointer { distance in
            (surveyed ? f.widths : []).withUnsafeBufferPointer { widths in
                terms.withUnsafeBufferPointer { terms in
                    for row in rows {
                        for column in columns {
                            let square = row * f.columns + column
                            let i = Int(f.squares[square])
                            if i < 0 { continue }
                            // The prior's terms and the Cauchy terms multiplied, the prior relative to
                            // its heaviest square.
                            var product = 1.0
                            if let p = prior {
                                let w = p.weights[
                                    (row - rows.lowerBound) * columns.count + column - columns.lowerBound]
                                if w < model.prune * p.top { continue }
                                product = p.top / w
                            }
                            var fold = 0.0
                            let at = i * stride
                            var k = 0
                            while k < stride {
                                // Eight terms of at most 1 + (150 dB)² · tail each (a few times
                                // that surveyed) stay far below the range of a double; then a
                                // large product is folded out.
                                let end = min(k + 8, stride)
                                while k < end {
                                    let r = max(terms[k].base + terms[k].gain * distance[at + k], terms[k].least)
                                    if surveyed {
                                        let (w, weigh) = (widths[at + k], terms[k].weigh)
                                        product *= 1 + weigh * (w.scale - 1) + r * r * (tail + weigh * (w.tail - tail))
                                    } else {
                                        product *= 1 + r * r * tail
                                    }
                                    k += 1
                                }
                                if product > 1e200 {
                                    fold += Numerics.likelihoodLog(product)
                                    product = 1
                                }
                            }
                            if fold > 0, folded.isEmpty { folded = [Double](repeating: 0, count: inverse.count) }
                            if !folded.isEmpty { folded.append(fold) }
                            inverse.append(product)
                            cells.append(i)
                            squares.append(Int32(square))
                            heaviest = min(heaviest, product)
                        }
                    }
                }
            }
        }
        // The prior left no room cell (a plan reloaded beneath it): start afresh.
        guard !cells.isEmpty else {
            return prior == nil
                ? nil
                : estimate(
                    floor: floor, signals: signals, measuredPower: measuredPower, exponent: exponent,
                    offline: offline, previous: nil, elapsed: elapsed)
        }
        var (sum, sx, sy) = (0.0, 0.0, 0.0)
        var weights: [Double]
        if folded.isEmpty {
            weights = inverse.map { heaviest / $0 }
        } else {
            let logs = zip(folded, inverse).map { -($0 + Numerics.likelihoodLog($1)) }
            let best = logs.max() ?? 0
            weights = logs.map { Numerics.exp($0 - best) }
        }
        for k in weights.indices {
            // e^−60 is below a double's precision beside the heaviest cell's 1.
            if weights[k] < Self.negligible { weights[k] = 0 }
            let w = weights[k]
            sum += w
            sx += w * f.xs[cells[k]]
            sy += w * f.ys[cells[k]]
        }
        let (mx, my) = Self.median(of: f, cells: cells, weights: weights, from: (sx / sum, sy / sum), cell: model.cell)
        var spread2 = 0.0
        var shares = [Double](repeating: 0, count: f.rooms.count)
        for k in weights.indices {
            let (dx, dy) = (f.xs[cells[k]] - mx, f.ys[cells[k]] - my)
            spread2 += weights[k] * (dx * dx + dy * dy)
            shares[f.cellRooms[cells[k]]] += weights[k] / sum
        }
        // A posterior on one cell still has the cell's own extent.
        let radius = max((spread2 / sum).squareRoot(), model.cell / 2)
        return Estimate(
            floor: floor, x: mx, y: my, radius: radius,
            rooms: f.rooms.indices.filter { shares[$0] > 0 }.map { Share(room: f.rooms[$0], probability: shares[$0]) },
            belief: belief(on: f, squares: squares, weights: weights))
    }

    /// e^−60: a weight this far below the heaviest cell's 1 is below a double's precision beside it.
    static let negligible = 8.75651076269652e-27

    /// The posterior's geometric median, which minimises the expected distance to the beacon (the
    /// mean minimises its square, and sits on the wall between two modes): Weiszfeld's iteration
    /// from the mean, a cell's distance floored at half a cell (its own extent), until a step moves
    /// less than a centimetre.
    static func median(
        of f: Floor, cells: [Int], weights: [Double], from mean: (Double, Double), cell: Double
    ) -> (Double, Double) {
        var (x, y) = mean
        let floor = cell / 2
        for _ in 0..<medianSteps {
            var (sw, sx, sy) = (0.0, 0.0, 0.0)
            for k in weights.indices where weights[k] > 0 {
                let (cx, cy) = (f.xs[cells[k]], f.ys[cells[k]])
                let (dx, dy) = (cx - x, cy - y)
                let w = weights[k] / max((dx * dx + dy * dy).squareRoot(), floor)
                sw += w
                sx += w * cx
                sy += w * cy
            }
            let (nx, ny) = (sx / sw, sy / sw)
            let moved = (nx - x) * (nx - x) + (ny - y) * (ny - y)
            (x, y) = (nx, ny)
            if moved < 1e-4 { break }
        }
        return (x, y)
    }

    /// Weiszfeld steps at most: each step shrinks the distance to the median by a constant factor.
    static let medianSteps = 20

    /// The squares of `within` whose centres may lie in [low, high].
    static func squares(
        _ low: Double, _ high: Double, from origin: Double, cell: Double, within: Range<Int>
    ) -> Range<Int> {
        let first = max(within.lowerBound, Int(((low - origin) / cell).rounded(.down)))
        let last = min(within.upperBound, Int(((high - origin) / cell).rounded(.up)) + 1)
        return first < last ? first..<last : first..<first
    }
}
