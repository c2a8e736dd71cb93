/// The belief a beacon's position carries from tick to tick (docs/locator.md, "How a position is
/// estimated"): the whole posterior on the floor's grid, not a Gaussian summary of it, so a belief
/// split between two rooms either side of a wall keeps both until the evidence settles it.
extension PositionEstimator {
    /// The posterior of the last estimate, sparse: the squares of the floor's grid holding at least
    /// `Model.prune` of the heaviest one's weight, at most `Model.beliefCells` of them (the
    /// heaviest), so a beacon's belief is bounded whatever the floor (8 bytes a square).
    package struct Belief: Sendable, Equatable {
        /// The grid the squares index (its first square's centre, columns, rows): a plan reloaded
        /// with another grid starts the beacon afresh rather than reading squares it no longer has.
        var grid: Grid
        /// Squares (row · columns + column), ascending, and their weights (the heaviest 1).
        var squares: [Int32] = []
        var weights: [Float] = []

        /// No belief: the next estimate weighs the whole floor.
        package var isEmpty: Bool { squares.isEmpty }
        /// How many squares it holds.
        package var count: Int { squares.count }
    }

    /// A floor's grid as a belief refers to it.
    struct Grid: Sendable, Equatable {
        var origin = SitePlan.Point(x: 0, y: 0)
        var columns = 0
        var rows = 0
    }

    /// The prior of a tick: the belief spread by the motion since (the HMM's prediction), dense on
    /// the squares of `columns` × `rows`, row by row; the heaviest square's weight is `top`.
    struct Prior {
        var columns: Range<Int>
        var rows: Range<Int>
        var weights: [Double]
        var top: Double
    }

    /// The belief spread by a walk of `elapsed` seconds: a Gaussian of σ² = (speed · elapsed)² +
    /// fidget², separable, so one pass along the rows and one along the columns, each square's
    /// weight over the rooms' squares alone (`reach`). The kernel is cut where it falls below
    /// `prune`, as the belief was. nil: nothing to spread, or spread wider than the floor, which is
    /// as good as no prior.
    func spread(_ belief: Belief, on f: Floor, elapsed: Double) -> Prior? {
        guard !belief.isEmpty, belief.grid == f.grid else { return nil }
        let walk = model.speed * max(elapsed, 0)
        let sigma = (walk * walk + model.fidget * model.fidget).squareRoot() / model.cell  // squares
        guard sigma < Double(max(f.columns, f.rows)) else { return nil }
        let k = Int((sigma * (2 * -Numerics.log(model.prune)).squareRoot()).rounded(.up))
        // e^(−j²/2σ²) from one exponential: each tap the last times g^(2j−1), g = e^(−1/2σ²).
        var kernel = [Double](repeating: 1, count: 2 * k + 1)
        let g = Numerics.exp(-1 / (2 * sigma * sigma))
        var step = g
        for j in stride(from: 1, through: k, by: 1) {
            kernel[k + j] = kernel[k + j - 1] * step
            kernel[k - j] = kernel[k + j]
            step *= g * g
        }
        var (low, high) = (Int.max, Int.min)
        for s in belief.squares {
            let c = Int(s) % f.columns
            low = min(low, c)
            high = max(high, c)
        }
        let firstRow = Int(belief.squares[0]) / f.columns
        let lastRow = Int(belief.squares[belief.squares.count - 1]) / f.columns
        let columns = max(low - k, 0)..<min(high + k + 1, f.columns)
        let rows = max(firstRow - k, 0)..<min(lastRow + k + 1, f.rows)
        let width = columns.count
        let reach = Self.reach(belief, on: f, kernel: kernel, columns: low...high, rows: rows)
        // Along the rows: only the belief's rows hold anything. (Read and written through buffer
        // pointers: the passes are most of a position's cost after its likelihood.)
        var along = [Double](repeating: 0, count: (lastRow - firstRow + 1) * width)
        var weights = [Double](repeating: 0, count: rows.count * width)
        kernel.withUnsafeBufferPointer { kernel in
            along.withUnsafeMutableBufferPointer { along in
                for (n, (s, w)) in zip(belief.squares, belief.weights).enumerated() {
                    let (row, column) = (Int(s) / f.columns, Int(s) % f.columns)
                    let base = (row - firstRow) * width - columns.lowerBound + column
                    let w = Double(w) / reach[n]
                    for j in max(-k, columns.lowerBound - column)...min(k, columns.upperBound - 1 - column) {
                        along[base + j] += w * kernel[j + k]
                    }
                }
                // Then along the columns, into the prior's box.
                weights.withUnsafeMutableBufferPointer { weights in
                    guard let into = weights.baseAddress, let from = along.baseAddress else { return }
                    for row in firstRow...lastRow {
                        let source = from + (row - firstRow) * width
                        for j in max(-k, rows.lowerBound - row)...min(k, rows.upperBound - 1 - row) {
                            let (kj, target) = (kernel[j + k], into + (row + j - rows.lowerBound) * width)
                            for c in 0..<width { target[c] += kj * source[c] }
                        }
                    }
                }
            }
        }
        // The heaviest square of the box, in a room or not: the cut is relative to it.
        let top = weights.max() ?? 0
        return top > 0 ? Prior(columns: columns, rows: rows, weights: weights, top: top) : nil
    }

    /// Per square of the belief, how much of the kernel about it falls on the plan's rooms: a
    /// beacon walks within the rooms, so a square's weight spreads over the rooms' squares alone,
    /// its share beyond the outline given back to them. Without it a square by an outer wall would
    /// lose a share of its weight at every tick, and a still beacon there would be placed inwards.
    static func reach(
        _ belief: Belief, on f: Floor, kernel: [Double], columns: ClosedRange<Int>, rows: Range<Int>
    ) -> [Double] {
        let k = kernel.count / 2
        let width = columns.count
        // The rooms' squares summed along each row of the box, at the belief's columns.
        var along = [Double](repeating: 0, count: rows.count * width)
        for row in rows {
            for column in columns {
                var sum = 0.0
                for j in max(-k, -column)...min(k, f.columns - 1 - column)
                where f.squares[row * f.columns + column + j] >= 0 {
                    sum += kernel[j + k]
                }
                along[(row - rows.lowerBound) * width + column - columns.lowerBound] = sum
            }
        }
        return belief.squares.map { s in
            let (row, column) = (Int(s) / f.columns, Int(s) % f.columns)
            var sum = 0.0
            for j in max(-k, rows.lowerBound - row)...min(k, rows.upperBound - 1 - row) {
                sum += kernel[j + k] * along[(row + j - rows.lowerBound) * width + column - columns.lowerBound]
            }
            return max(sum, 1)
        }
    }

    /// The belief to carry from a posterior given as `squares` (ascending) and weights relative to
    /// the heaviest: those at least `prune`; over `beliefCells` of them, the cut doubles until they
    /// fit (the heaviest kept, no sort), the first in square order among ties at the heaviest's.
    func belief(on f: Floor, squares: [Int32], weights: [Double]) -> Belief {
        var cut = model.prune
        while cut < 1, weights.count(where: { $0 >= cut }) > model.beliefCells { cut = min(cut * 2, 1) }
        var belief = Belief(grid: f.grid)
        for (s, w) in zip(squares, weights) where w >= cut && belief.count < model.beliefCells {
            belief.squares.append(s)
            belief.weights.append(Float(w))
        }
        return belief
    }
}
