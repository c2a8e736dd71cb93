import Vocabulary

/// The `nearest` engine's hand-over rule (docs/locator.md, "The nearest engine"): the nearest
/// gateway owns the beacon, and a challenger takes over outright or sustained.
package struct HandOverRule: Sendable, Equatable {
    /// A challenger this much closer (fraction of the owner's distance) takes over at once.
    package var switchOutright: Double = 0.30
    /// … or this much closer in every reading of its history window.
    package var switchSustained: Double = 0.15
    /// Readings per gateway kept for the sustained rule.
    package var historyWindow: Int = 5
    /// Fewest readings a challenger needs for the sustained rule.
    package var minHistory: Int = 3
    /// A new owner is kept at least this long (unless it goes stale or offline).
    package var minDwell: TimeSpan = .seconds(10)

    package init() {}
}
