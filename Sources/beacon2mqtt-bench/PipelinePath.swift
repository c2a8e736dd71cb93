import BeaconCore
import BeaconWire

/// The one place the benchmark drives the core pipeline: decode → region match → filter →
/// monitoring → ranging ticks → message formatting, one packet at a time, output discarded.
///
/// STAND-IN until BeaconCore's `Pipeline` lands on main: it only decodes. Swap the body for
/// `Pipeline(configuration:)`, `ingest(_:into:)` and `advance(to:into:)`.
struct PipelinePath {
    static let isStandIn = true

    private var messages: [OutboundMessage] = []
    private(set) var messageCount = 0
    private(set) var checksum: UInt64 = 0

    init(configuration: Configuration) {
        messages.reserveCapacity(1024)
    }

    /// Feeds one packet; every message produced is counted and folded into the checksum, then dropped.
    @inline(__always)
    mutating func ingest(_ packet: CapturedPacket) {
        var tally = DecodeTally()
        packet.bytes.withUnsafeBytes { DecodePath.decode($0, into: &tally) }
        checksum &+= tally.digest
        drain()
    }

    /// Lets simulated time run on to `time` (ticks, exits) without a packet.
    mutating func advance(to time: Timestamp) {
        drain()
    }

    private mutating func drain() {
        for message in messages { checksum &+= UInt64(message.topic.utf8.count &+ message.payload.text.utf8.count) }
        messageCount &+= messages.count
        messages.removeAll(keepingCapacity: true)
    }
}
