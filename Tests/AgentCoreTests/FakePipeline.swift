import AgentCore
import AgentTestFixtures
import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Vocabulary

/// A scripted core: packet n yields `b/n/event` (QoS 1), `b/n/proximity` (QoS 0) and sets the
/// retained `b/n/state`; it records what the agent told it.
struct FakePipeline: WholePacketPipeline {
    var statistics = PipelineStatistics()
    var states: [Int: String] = [:]
    /// `advance(to:)` calls, in order.
    var advances: [Timestamp] = []
    /// The payload clock offsets the core set, when they changed.
    var offsets: [TimeSpan] = []
    var restored: [RetainedMessage]?
    var restoredAt: Timestamp?
    /// `finish(by:)` steps left before it reports finished; each step yields an exit event.
    var finishSteps = 0

    static func packet(_ n: UInt8, at microseconds: Int64 = 0) -> CapturedPacket {
        CapturedPacket(timestamp: Timestamp(microseconds: microseconds), bytes: [n])
    }

    mutating func ingest(_ packet: CapturedPacket, into out: inout [OutboundMessage]) {
        let n = Int(packet.bytes[0])
        statistics.reports += 1
        out.append(Messages.event(n))
        out.append(Messages.proximity(n))
        states[n] = "n\(n)"
        out.append(OutboundMessage(topic: "b/\(n)/state", payload: .text("n\(n)"), qos: 1, retain: true, kind: .state))
        statistics.beaconsTracked = states.count
    }

    mutating func advance(to now: Timestamp, into out: inout [OutboundMessage]) { advances.append(now) }

    mutating func setPayloadClockOffset(_ offset: TimeSpan) {
        if offsets.last != offset { offsets.append(offset) }
    }

    mutating func reconfigure(_ configuration: Configuration, at now: Timestamp, into out: inout [OutboundMessage]) {}

    mutating func restore(retained: [RetainedMessage], at now: Timestamp, into out: inout [OutboundMessage]) {
        restored = retained
        restoredAt = now
    }

    mutating func republishRetained(into out: inout [OutboundMessage]) {
        out += states.sorted { $0.key < $1.key }.map {
            OutboundMessage(topic: "b/\($0.key)/state", payload: .text($0.value), qos: 1, retain: true, kind: .state)
        }
    }

    mutating func finish(into out: inout [OutboundMessage]) {}

    mutating func finish(by step: TimeSpan, into out: inout [OutboundMessage]) -> Bool {
        guard finishSteps > 0 else { return true }
        finishSteps -= 1
        out.append(
            OutboundMessage(topic: "b/exit/\(finishSteps)", payload: .text("exit"), qos: 1, retain: false, kind: .event)
        )
        return finishSteps == 0
    }
}

/// A source failure with the exit status a test chooses.
struct TestFailure: SourceFailure {
    var exitStatus: Int32
    var description: String { "capture damaged at byte 42" }
}
