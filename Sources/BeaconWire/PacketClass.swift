/// What kind of HCI packet was decoded, so a caller can count the traffic it ignores.
/// Only the LE Meta subevents of `AdvertisingReport.Kind` (0x02, 0x0B, 0x0D) carry advertising
/// reports; everything else is classified here, never treated as an error.
public struct PacketClass: Sendable, Equatable {
    public var packetType: HCIPacketType
    /// Event code for events (0x3E = LE Meta event, Core Spec Vol 4, Part E, §7.7.65).
    public var eventCode: UInt8?
    /// LE Meta subevent code, when `eventCode == 0x3E`.
    public var leSubevent: UInt8?
    /// Number of advertising reports delivered from this packet.
    public var reportCount: Int

    public init(packetType: HCIPacketType, eventCode: UInt8? = nil, leSubevent: UInt8? = nil, reportCount: Int = 0) {
        self.packetType = packetType
        self.eventCode = eventCode
        self.leSubevent = leSubevent
        self.reportCount = reportCount
    }

    /// True for LE Meta events whose subevent carries advertising reports (`HCIEventCode`).
    /// Inlinable: the pipeline asks once a packet, from another module.
    @inlinable
    public var isAdvertisingReport: Bool {
        guard eventCode == HCIEventCode.leMeta, let leSubevent else { return false }
        return HCIEventCode.isAdvertisingReport(subevent: leSubevent)
    }
}
