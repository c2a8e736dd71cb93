/// The result of `HCIPacketDecoder.decode`: what the packet was, and its advertising reports.
public struct HCIPacketSummary: Sendable, Equatable {
    public var packetClass: PacketClass
    public var reports: [AdvertisingReport]

    public init(packetClass: PacketClass, reports: [AdvertisingReport]) {
        self.packetClass = packetClass
        self.reports = reports
    }

    public var packetType: HCIPacketType { packetClass.packetType }
    public var eventCode: UInt8? { packetClass.eventCode }
    public var leSubevent: UInt8? { packetClass.leSubevent }
}
