import GatewayPipeline
import MessageContract

/// The pipeline counters the stats message and `/metrics` report.
package struct PipelineStatistics: Sendable, Equatable {
    package var reports: Int
    package var beaconsTracked: Int
    package var malformed: Int
    package var malformedReasons = MalformedCounts()
    /// Enter and exit events (regions and per-beacon).
    package var enters = 0
    package var exits = 0
    /// Resolvable private addresses that matched no configured device's IRK (counted, never kept).
    package var unresolvedPrivateAddresses = 0
    package init(reports: Int = 0, beaconsTracked: Int = 0, malformed: Int = 0) {
        self.reports = reports
        self.beaconsTracked = beaconsTracked
        self.malformed = malformed
    }
}
