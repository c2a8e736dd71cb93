/// `ranging.proximity`: the distances that part immediate, near and far.
package struct ProximityThresholds: Sendable, Equatable {
    /// accuracy < immediate → immediate.
    package var immediate: Double = 0.5
    /// accuracy ≤ near → near; beyond → far.
    package var near: Double = 4.0
    package init() {}
}
