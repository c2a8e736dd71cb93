import BeaconCore

/// A snapshot of what the agent has counted, for stats and tests.
public struct AgentCounters: Sendable, Equatable {
    public var outbox: Outbox.Counters
    /// Messages still held (queued or in flight).
    public var queued: Int
    public var pipeline: PipelineStatistics
    public var reconnects: Int
    /// Messages libmosquitto refused (for example an invalid topic).
    public var rejected: Int
}
