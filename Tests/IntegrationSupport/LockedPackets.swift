import BeaconWire
import Synchronization

/// Packets collected from a source's thread.
final class LockedPackets: Sendable {
    private let packets = Mutex<[CapturedPacket]>([])
    func append(_ packet: CapturedPacket) { packets.withLock { $0.append(packet) } }
    var all: [CapturedPacket] { packets.withLock { $0 } }
    var count: Int { packets.withLock { $0.count } }
}
