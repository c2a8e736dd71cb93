import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import Vocabulary

/// The one place the benchmark drives the core: `Pipeline` (decode → region match → filter →
/// monitoring → ranging ticks → message formatting), one packet at a time, output discarded after
/// it has been counted and checksummed (so formatting cannot be optimised away).
struct PipelinePath {
    static let isStandIn = false

    private var pipeline: Pipeline
    private var messages: [OutboundMessage] = []
    private(set) var messageCount = 0
    private(set) var checksum: UInt64 = 0

    init(configuration: Configuration, identityResolver: IdentityResolverFactory? = nil) {
        pipeline = Pipeline(configuration: configuration, identityResolver: identityResolver)
        messages.reserveCapacity(1024)
    }

    var counters: PipelineCounters { pipeline.counters }

    /// Feeds one packet; every message produced is counted and folded into the checksum, then dropped.
    @inline(__always)
    mutating func ingest(_ packet: CapturedPacket) {
        pipeline.ingest(packet, into: &messages)
        drain()
    }

    /// Lets simulated time run on to `time` (ticks, exits) without a packet.
    mutating func advance(to time: Timestamp) {
        pipeline.advance(to: time, into: &messages)
        drain()
    }

    private mutating func drain() {
        for message in messages { checksum &+= UInt64(message.topic.utf8.count &+ message.payload.text.utf8.count) }
        messageCount &+= messages.count
        messages.removeAll(keepingCapacity: true)
    }
}
