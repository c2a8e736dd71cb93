/// The pipeline counters the stats message reports.
public struct PipelineStatistics: Sendable, Equatable {
    public var reports: Int
    public var beaconsTracked: Int
    public var malformed: Int
    public init(reports: Int = 0, beaconsTracked: Int = 0, malformed: Int = 0) {
        self.reports = reports
        self.beaconsTracked = beaconsTracked
        self.malformed = malformed
    }
}
