import BeaconCore

/// A snapshot of what the agent has counted, for stats and tests.
package struct AgentCounters: Sendable, Equatable {
    package var outbox: Outbox.Counters
    /// Messages still held (queued or in flight).
    package var queued: Int
    package var pipeline: PipelineStatistics
    package var reconnects: Int
    /// Messages libmosquitto refused (for example an invalid topic).
    package var rejected: Int
}
