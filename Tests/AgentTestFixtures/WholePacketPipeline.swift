import AgentCore
import BeaconCore
import BeaconWire
import MessageContract
import Vocabulary

/// The tests' scripted pipelines: they take whole packets, compose everything at once, print no
/// times, have no regions and no clock of their own. What `MessagePipeline` asks beyond that is
/// answered here, for them only (the real `Pipeline` implements every requirement).
package protocol WholePacketPipeline: MessagePipeline {
    mutating func ingest(_ packet: CapturedPacket, into out: inout [OutboundMessage])
    mutating func finish(into out: inout [OutboundMessage])
}

extension WholePacketPipeline {
    package mutating func ingest(_ packet: PacketView, into out: inout [OutboundMessage]) {
        ingest(
            CapturedPacket(timestamp: packet.timestamp, bytes: Array(packet.bytes), incoming: packet.incoming),
            into: &out)
    }

    package var regionStates: [(name: String, state: RegionState)] { [] }

    package var defersRanging: Bool {
        get { false }
        set {}
    }
    package var deferredOutput: Int { 0 }
    package var deferredTicks: Int { 0 }
    package mutating func composeDeferred(upTo limit: Int, into out: inout [OutboundMessage]) {}

    package mutating func setPayloadClockOffset(_ offset: TimeSpan) {}

    /// One step: no clock to run on.
    package mutating func finish(by step: TimeSpan, into out: inout [OutboundMessage]) -> Bool {
        finish(into: &out)
        return true
    }
}
