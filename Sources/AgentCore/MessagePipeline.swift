import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Vocabulary

/// What the agent's loop needs from the core: GatewayPipeline's `Pipeline` conforms (see
/// `Pipeline+MessagePipeline.swift`) and implements every requirement; tests drive the loop with
/// small scripted pipelines (Tests/AgentTestFixtures' `WholePacketPipeline`). Its type reaches the
/// source thread, which may run a turn of the loop (Runtime's `PipelineTurns`).
package protocol MessagePipeline: SendableMetatype {
    /// Decodes one HCI packet, read in place from a `PacketBatch` (the sources' hand-over), and
    /// runs monitoring and ranging up to its time.
    mutating func ingest(_ packet: PacketView, into out: inout [OutboundMessage])
    /// Runs the timers (exit timeouts, ranging ticks) up to `now`.
    mutating func advance(to now: Timestamp, into out: inout [OutboundMessage])
    /// Applies a reloaded configuration, keeping the state of unchanged regions.
    mutating func reconfigure(_ configuration: Configuration, at now: Timestamp, into out: inout [OutboundMessage])
    /// Restores states read back from the broker's retained `attributes` topics: the pipeline keeps
    /// those younger than `monitoring.restore_max_age` at `now`, and clears (into `out`) the retained
    /// topics of regions and beacons it no longer monitors.
    mutating func restore(retained: [RetainedMessage], at now: Timestamp, into out: inout [OutboundMessage])
    /// The retained messages (state, attributes) that describe the current state, to republish
    /// after a reconnect.
    mutating func republishRetained(into out: inout [OutboundMessage])
    /// The end of a finite source: lets pending exits and ranging updates fire, as `replay` does, in
    /// steps of at most `step` of the pipeline's time; true when finished.
    mutating func finish(by step: TimeSpan, into out: inout [OutboundMessage]) -> Bool
    /// What to add to the pipeline's times when they are printed in payloads: the wall clock's
    /// distance from a live pipeline's steady time (AgentCore+Time); 0 for a capture.
    mutating func setPayloadClockOffset(_ offset: TimeSpan)
    /// Keep a ranging tick's results uncomposed until `composeDeferred` asks (the agent turns it
    /// on; see GatewayPipeline's Pipeline+DeferredRanging).
    var defersRanging: Bool { get set }
    /// Deferred ranging results not composed yet.
    var deferredOutput: Int { get }
    /// Ticks whose results were deferred so far (a new value: a new tick to pace).
    var deferredTicks: Int { get }
    /// Composes up to `limit` deferred ranging results, oldest first.
    mutating func composeDeferred(upTo limit: Int, into out: inout [OutboundMessage])
    var statistics: PipelineStatistics { get }
    /// Each configured region's state, for `/metrics`.
    var regionStates: [(name: String, state: RegionState)] { get }
}
