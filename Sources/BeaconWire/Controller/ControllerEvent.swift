/// The HCI events the scanner acts on (Core Spec Vol 4, Part E, §7.7), as
/// `HCIPacketDecoder.controllerEvent` parses them.
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

    /// True for LE Meta events that carry advertising reports, which is what feeds the watchdog;
    /// the same subevents the report path decodes (`HCIEventCode.isAdvertisingReport`).
    public var isAdvertisingReport: Bool {
        if case .leMeta(let subevent) = self { return HCIEventCode.isAdvertisingReport(subevent: subevent) }
        return false
    }
}
