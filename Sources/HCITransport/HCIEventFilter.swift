import BeaconWire

/// The Linux raw HCI socket filter (`struct hci_filter`, set with SOL_HCI/HCI_FILTER): which packet
/// types and event codes the kernel delivers to this socket. Bit n of `typeMask` is H4 packet type n;
/// bit n of `eventMask` is event code n (0…63).
package struct HCIEventFilter: Sendable, Equatable {
    package var typeMask: UInt32
    package var eventMask: UInt64
    /// 0 = no opcode restriction.
    package var opcode: UInt16

    package init(typeMask: UInt32 = 0, eventMask: UInt64 = 0, opcode: UInt16 = 0) {
        self.typeMask = typeMask
        self.eventMask = eventMask
        self.opcode = opcode
    }

    /// Only event packets, and of them exactly the ones the scanner uses: LE Meta (advertising
    /// reports), Command Complete/Status (command results), Hardware Error (reset trigger) and
    /// Disconnection Complete. Everything else stays out of the socket's queue.
    package static let scanner = HCIEventFilter(
        packetTypes: [HCIPacketType.event.rawValue],
        events: [
            HCIEventCode.leMeta, HCIEventCode.commandComplete, HCIEventCode.commandStatus,
            HCIEventCode.hardwareError, HCIEventCode.disconnectionComplete,
        ])

    package init(packetTypes: [UInt8], events: [UInt8]) {
        self.init()
        for type in packetTypes { typeMask |= 1 << UInt32(type & 31) }
        for event in events { eventMask |= 1 << UInt64(event & 63) }
    }

    /// The two 32-bit words of `event_mask`, low events first.
    package var eventMaskWords: (UInt32, UInt32) {
        (UInt32(truncatingIfNeeded: eventMask), UInt32(truncatingIfNeeded: eventMask >> 32))
    }

    package func admits(event code: UInt8) -> Bool { code < 64 && eventMask & (1 << UInt64(code)) != 0 }
}
