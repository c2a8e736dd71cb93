import AgentCore
import AgentTestFixtures
import BeaconCore
import BeaconWire
import CLI
import Foundation
import MessageContract
import Settings
import Synchronization
import Vocabulary

/// A stand-in core for runtime tests: every packet whose first payload byte after the H4 event
/// header is `n` yields an `event` message numbered n (QoS 1) and a proximity message (QoS 0), and
/// sets the retained state of beacon n. So what the broker delivers can be checked exactly.
struct ScriptedPipeline: WholePacketPipeline {
    var statistics = PipelineStatistics()
    var states: [Int: String] = [:]
    let recorder = PipelineRecorder()
    var base = "beacons"
    /// Packet 1 also yields this many events on distinct topics (a cohort's exits at once).
    var burst = 0
    /// What the burst is: events (QoS 1) or a ranging tick's proximity messages (QoS 0).
    var burstKind = OutboundMessage.Kind.event

    static func packet(_ n: UInt16, at time: Timestamp) -> CapturedPacket {
        CapturedPacket(timestamp: time, bytes: [0x04, 0xFF, 0x02, UInt8(n >> 8), UInt8(n & 0xFF)])
    }

    mutating func ingest(_ packet: CapturedPacket, into out: inout [OutboundMessage]) {
        guard packet.bytes.count == 5 else {
            statistics.malformed += 1
            return
        }
        let n = Int(packet.bytes[3]) << 8 | Int(packet.bytes[4])
        statistics.reports += 1
        if n == 1 {
            for i in 0..<burst {
                let event = burstKind == .event
                out.append(
                    OutboundMessage(
                        topic: "\(base)/burst/\(i)/\(event ? "event" : "proximity")",
                        payload: .json(event ? "{\"event\":\"exit\"}" : "{}"), qos: event ? 1 : 0, retain: false,
                        kind: burstKind))
            }
        }
        let beacon = n % 5
        out.append(
            OutboundMessage(
                topic: "\(base)/test/\(beacon)/event", payload: .json("{\"event\":\"enter\",\"n\":\(n)}"), qos: 1,
                retain: false, kind: .event))
        out.append(
            OutboundMessage(
                topic: "\(base)/test/\(beacon)/proximity", payload: .json("{\"n\":\(n)}"), qos: 0, retain: false,
                kind: .proximity))
        states[beacon] = "n\(n)"
        out.append(
            OutboundMessage(
                topic: "\(base)/test/\(beacon)/state", payload: .text("n\(n)"), qos: 1, retain: true, kind: .state))
        statistics.beaconsTracked = states.count
    }

    mutating func advance(to now: Timestamp, into out: inout [OutboundMessage]) {}

    mutating func reconfigure(_ configuration: Configuration, at now: Timestamp, into out: inout [OutboundMessage]) {
        recorder.regions.withLock { $0 = configuration.regions.map(\.name) }
    }

    mutating func restore(retained: [RetainedMessage], at now: Timestamp, into out: inout [OutboundMessage]) {
        recorder.restored.withLock { $0 = retained }
    }

    mutating func republishRetained(into out: inout [OutboundMessage]) {
        out += states.sorted { $0.key < $1.key }.map {
            OutboundMessage(
                topic: "\(base)/test/\($0.key)/state", payload: .text($0.value), qos: 1, retain: true, kind: .state)
        }
    }

    mutating func finish(into out: inout [OutboundMessage]) {}
}

/// What a `ScriptedPipeline` inside an agent was told, for the test to read.
final class PipelineRecorder: Sendable {
    let restored = Mutex<[RetainedMessage]>([])
    let regions = Mutex<[String]>([])
}

/// Emits numbered packets 1…count, `interval` apart in real time, then ends.
final class ScriptedSource: PacketSource {
    let count: Int
    let interval: Double
    private let stopped = AtomicFlag()

    /// After the last packet: end (like a capture), or idle until stopped (like a live scanner).
    let endsAfterLast: Bool
    /// Reported as the source's health before the first packet (nil: nothing reported).
    let degradedReason: String?
    /// Seconds `run` takes after `stop` before it returns, as an HCI source's stop handshake does.
    let stopHandshake: Double
    /// Set when `run` has returned (after the handshake).
    let finished = AtomicFlag()
    /// Seconds before the first packet (a test may act on the session before it).
    let firstAfter: Double

    init(
        count: Int, interval: Double, endsAfterLast: Bool = true, degradedReason: String? = nil,
        stopHandshake: Double = 0, firstAfter: Double = 0
    ) {
        self.count = count
        self.interval = interval
        self.endsAfterLast = endsAfterLast
        self.degradedReason = degradedReason
        self.stopHandshake = stopHandshake
        self.firstAfter = firstAfter
    }

    func stop() { stopped.set() }

    func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws {
        if let degradedReason { deliver(.health(.degraded(reason: degradedReason))) }
        if firstAfter > 0 { Thread.sleep(forTimeInterval: firstAfter) }
        for n in 1...count where !stopped.isSet {
            deliver(.packet(ScriptedPipeline.packet(UInt16(n), at: Timestamp(microseconds: Int64(n) * 100_000))))
            if interval > 0 { Thread.sleep(forTimeInterval: interval) }
        }
        while !endsAfterLast, !stopped.isSet { Thread.sleep(forTimeInterval: 0.02) }
        if stopped.isSet, stopHandshake > 0 { Thread.sleep(forTimeInterval: stopHandshake) }
        deliver(.end)
        finished.set()
    }
}
