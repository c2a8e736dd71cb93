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
        var map: MapDocument?
    }

    /// The live map's newest document (`/map.json`, `/map/events`) and how many were published
    /// before it, so a stream can tell a new one from the one it sent.
    package struct MapDocument: Sendable {
        package var version: Int
        package var json: [UInt8]
    }

    private let slots = Mutex(Slots())
    private let version: String

    package init(version: String) { self.version = version }

    package func publish(_ gateway: GatewayMetrics) { slots.withLock { $0.gateway = gateway } }

    package func publish(_ locator: LocatorMetrics) { slots.withLock { $0.locator = locator } }

    /// The locator's map as JSON, built on its thread (`LiveMap`).
    package func publish(map json: String) {
        let bytes = Array(json.utf8)
        slots.withLock { $0.map = MapDocument(version: ($0.map?.version ?? 0) + 1, json: bytes) }
    }

    /// The newest map, nil before the locator published one.
    package var map: MapDocument? { slots.withLock { $0.map } }

    /// What a scrape shows now, with the process figures.
    package func snapshot() -> MetricsSnapshot {
        let current = slots.withLock { $0 }
        return MetricsSnapshot(
            version: version, gateway: current.gateway, locator: current.locator, process: ProcessSampler.sample())
    }
}
