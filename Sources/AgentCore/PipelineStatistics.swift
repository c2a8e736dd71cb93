/// The pipeline counters the stats message reports.
package struct PipelineStatistics: Sendable, Equatable {
    package var reports: Int
    package var beaconsTracked: Int
    package var malformed: Int
    package init(reports: Int = 0, beaconsTracked: Int = 0, malformed: Int = 0) {
        self.reports = reports
        self.beaconsTracked = beaconsTracked
        self.malformed = malformed
    }
}
