/// Distances between estimated and true positions, metres: their median and 90th percentile.
struct PositionErrors {
    private(set) var errors: [Double] = []

    mutating func add(_ error: Double) { errors.append(error) }
    mutating func merge(_ other: PositionErrors) { errors += other.errors }

    var count: Int { errors.count }
    var median: Double { quantile(0.5) }
    var p90: Double { quantile(0.9) }

    /// Linear interpolation between the nearest ranks; 0 without errors.
    func quantile(_ q: Double) -> Double {
        guard !errors.isEmpty else { return 0 }
        let sorted = errors.sorted()
        let rank = q * Double(sorted.count - 1)
        let low = Int(rank)
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }
}
