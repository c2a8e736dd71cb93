/// The HCI events the scanner acts on, parsed from one event packet (Core Spec Vol 4, Part E, §5.4.4,
/// §7.7). Every read is bounds-checked; multi-byte fields are little-endian.
public enum ControllerEvent: Sendable, Equatable {
    /// HCI_Command_Complete (§7.7.14).
    case commandComplete(CommandComplete)
    /// HCI_Command_Status (§7.7.15).
    case commandStatus(status: HCIStatus, opcode: HCIOpcode)
    /// HCI_Hardware_Error (§7.7.16): the controller needs an HCI Reset.
    case hardwareError(code: UInt8)
    /// HCI_Disconnection_Complete (§7.7.5).
    case disconnectionComplete(status: HCIStatus, handle: UInt16, reason: HCIStatus)
    /// HCI_LE_Meta (§7.7.65) with its subevent code.
    case leMeta(subevent: UInt8)
    /// Any other event code.
    case other(code: UInt8)

    public struct CommandComplete: Sendable, Equatable {
        /// Num_HCI_Command_Packets.
        public var allowedCommandPackets: UInt8
        /// 0x0000 is a "no-op" that only updates the command credit.
        public var opcode: HCIOpcode
        /// Return_Parameters; for every command here the first byte is the Status.
        public var returnParameters: [UInt8]

        public init(allowedCommandPackets: UInt8 = 1, opcode: HCIOpcode, returnParameters: [UInt8]) {
            self.allowedCommandPackets = allowedCommandPackets
            self.opcode = opcode
            self.returnParameters = returnParameters
        }

        /// The Status return parameter; a Command Complete without one is treated as unspecified failure.
        public var status: HCIStatus { HCIStatus(rawValue: returnParameters.first ?? 0x1F) }
    }

    /// H4 packet indicator for HCI event packets (Vol 4, Part A, §2).
    public static let packetIndicator: UInt8 = 0x04
    public static let commandCompleteCode: UInt8 = 0x0E
    public static let commandStatusCode: UInt8 = 0x0F
    public static let hardwareErrorCode: UInt8 = 0x10
    public static let disconnectionCompleteCode: UInt8 = 0x05
    public static let leMetaCode: UInt8 = 0x3E
    /// LE Meta subevents that carry advertising reports: LE Advertising Report (0x02),
    /// LE Directed Advertising Report (0x0B), LE Extended Advertising Report (0x0D).
    public static let advertisingReportSubevents: Set<UInt8> = [0x02, 0x0B, 0x0D]

    /// Parses an event packet that starts with its H4 indicator (as a raw HCI socket delivers it).
    public init(packet: [UInt8]) throws(ControllerEventError) {
        guard let indicator = packet.first else { throw .truncated(needed: 1, available: 0, offset: 0) }
        guard indicator == Self.packetIndicator else { throw .notAnEvent(indicator: indicator) }
        guard packet.count >= 3 else { throw .truncated(needed: 3, available: packet.count, offset: 0) }
        let declared = Int(packet[2])
        let available = packet.count - 3
        guard declared == available else { throw .lengthMismatch(declared: declared, available: available) }
        try self.init(eventCode: packet[1], parameters: packet[3...], baseOffset: 3)
    }

    /// Parses the parameters of event `eventCode`. `baseOffset` is only used in error offsets.
    public init(eventCode: UInt8, parameters p: ArraySlice<UInt8>, baseOffset: Int = 0) throws(ControllerEventError) {
        func need(_ n: Int) throws(ControllerEventError) {
            guard p.count >= n else { throw .truncated(needed: n, available: p.count, offset: baseOffset) }
        }
        func u16(_ at: Int) -> UInt16 { UInt16(p[p.startIndex + at]) | UInt16(p[p.startIndex + at + 1]) << 8 }
        func u8(_ at: Int) -> UInt8 { p[p.startIndex + at] }
        switch eventCode {
        case Self.commandCompleteCode:
            try need(3)
            self = .commandComplete(
                CommandComplete(
                    allowedCommandPackets: u8(0), opcode: HCIOpcode(rawValue: u16(1)),
                    returnParameters: Array(p.dropFirst(3))))
        case Self.commandStatusCode:
            try need(4)
            self = .commandStatus(status: HCIStatus(rawValue: u8(0)), opcode: HCIOpcode(rawValue: u16(2)))
        case Self.hardwareErrorCode:
            try need(1)
            self = .hardwareError(code: u8(0))
        case Self.disconnectionCompleteCode:
            try need(4)
            self = .disconnectionComplete(
                status: HCIStatus(rawValue: u8(0)), handle: u16(1) & 0x0FFF, reason: HCIStatus(rawValue: u8(3)))
        case Self.leMetaCode:
            try need(1)
            self = .leMeta(subevent: u8(0))
        default:
            self = .other(code: eventCode)
        }
    }

    /// True for LE Meta events that carry advertising reports, which is what feeds the watchdog.
    public var isAdvertisingReport: Bool {
        if case .leMeta(let subevent) = self { return Self.advertisingReportSubevents.contains(subevent) }
        return false
    }
}
