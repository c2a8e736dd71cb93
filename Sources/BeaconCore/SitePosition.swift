/// A point of the site in metres, on the site's own axes (`gateway.position`): x and y across the
/// floor, z the height above it.
package struct SitePosition: Sendable, Equatable, Hashable {
    /// The largest coordinate accepted (metres): a campus, not a country.
    package static let limit = 100_000.0

    package var x: Double
    package var y: Double
    package var z: Double

    package init(x: Double, y: Double, z: Double = 0) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Straight-line distance in metres.
    package func distance(to other: SitePosition) -> Double {
        let (dx, dy, dz) = (x - other.x, y - other.y, z - other.z)
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }
}
