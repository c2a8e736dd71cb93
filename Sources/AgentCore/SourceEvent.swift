import BeaconWire
import Vocabulary

/// What a packet source reports to the agent's loop.
package enum SourceEvent: Sendable {
    /// Packets in order, handed over at once in one buffer (one queue hand-over and wake-up for
    /// all, and no array per packet): the one shape packets arrive in, one or many.
    case packets(PacketBatch)
    /// The source's health changed.
    case health(SourceHealth)
    /// What the radio does with `advertise:` changed (the live adapter only).
    case advertising(AdvertisingState)
    /// Every packet stamped before this time has been handed over (a capture replayed at a speed,
    /// before it waits for a packet stamped then): the capture's clock may run up to it between
    /// packets, and no further.
    case caughtUp(through: Timestamp)
    /// The source has no more packets (end of a capture or simulation).
    case end

    /// Packets built one by one (the simulators), handed over as one batch.
    package static func packets(_ packets: [CapturedPacket]) -> SourceEvent { .packets(PacketBatch(packets)) }

    /// One packet, as a batch of one.
    package static func packet(_ packet: CapturedPacket) -> SourceEvent {
        .packets(PacketBatch(CollectionOfOne(packet)))
    }

    /// The packets this event carries, in order (none for health and end).
    package var carriedPackets: [CapturedPacket] {
        switch self {
        case .packets(let batch): batch.packets
        case .health, .advertising, .caughtUp, .end: []
        }
    }
}
