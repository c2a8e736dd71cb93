import MetricsContract
import Platform
import Synchronization

/// Where the pipeline thread (and the locator's) leave their newest figures for the HTTP thread:
/// each swaps in a snapshot built outside the lock; a scrape copies them (arrays are shared, not
/// copied) and reads /proc outside it. The lock is held for a copy, never while the pipeline
/// works, so a scrape never waits for the pipeline and the pipeline never waits for a scrape.
package final class MetricsBoard: Sendable {
    private struct Slots: Sendable {
        var gateway: GatewayMetrics?
        var locator: LocatorMetrics?
    }

    private let slots = Mutex(Slots())
    private let version: String

    package init(version: String) { self.version = version }

    package func publish(_ gateway: GatewayMetrics) { slots.withLock { $0.gateway = gateway } }

    package func publish(_ locator: LocatorMetrics) { slots.withLock { $0.locator = locator } }

    /// What a scrape shows now, with the process figures.
    package func snapshot() -> MetricsSnapshot {
        let current = slots.withLock { $0 }
        return MetricsSnapshot(
            version: version, gateway: current.gateway, locator: current.locator, process: ProcessSampler.sample())
    }
}
