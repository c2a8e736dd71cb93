/// The scan state machine's side of the one decoder: the same framing as the report path, then the
/// parameters of the events `ControllerEvent` names (Core Spec Vol 4, Part E, §7.7).
extension HCIPacketDecoder {
    /// Parses one event packet (by default H4-framed, as a raw HCI socket delivers it); nil when the
    /// packet is not an event. Parameter_Total_Length must match the bytes present.
    public static func controllerEvent(
        _ packet: [UInt8], indicator: H4Indicator = .present
    ) throws(DecodeError) -> ControllerEvent? {
        let outcome: Result<ControllerEvent?, DecodeError> = packet.withUnsafeBytes { raw in
            do throws(DecodeError) {
                return .success(try controllerEvent(in: raw, indicator: indicator))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Borrowing form of `controllerEvent(_:indicator:)`.
    public static func controllerEvent(
        in packet: UnsafeRawBufferPointer, indicator: H4Indicator = .present
    ) throws(DecodeError) -> ControllerEvent? {
        guard case .event(let frame) = try eventFrame(in: packet, indicator: indicator) else { return nil }
        if frame.isTruncated { throw frame.truncation }
        var p = ByteReader(frame.parameters, origin: frame.origin, context: .eventParameters)
        switch frame.code {
        case HCIEventCode.commandComplete:
            // Num_HCI_Command_Packets(1) Command_Opcode(2) Return_Parameters (§7.7.14).
            try p.require(3)
            let allowed = try p.readUInt8()
            let opcode = HCIOpcode(rawValue: try p.readUInt16LE())
            let returned = Array(try p.readBytes(p.remaining))
            return .commandComplete(
                ControllerEvent.CommandComplete(
                    allowedCommandPackets: allowed, opcode: opcode, returnParameters: returned))
        case HCIEventCode.commandStatus:
            // Status(1) Num_HCI_Command_Packets(1) Command_Opcode(2) (§7.7.15).
            try p.require(4)
            let status = HCIStatus(rawValue: try p.readUInt8())
            try p.skip(1)
            return .commandStatus(status: status, opcode: HCIOpcode(rawValue: try p.readUInt16LE()))
        case HCIEventCode.hardwareError:
            // Hardware_Code(1) (§7.7.16).
            return .hardwareError(code: try p.readUInt8())
        case HCIEventCode.disconnectionComplete:
            // Status(1) Connection_Handle(2, 12 bits) Reason(1) (§7.7.5).
            try p.require(4)
            let status = HCIStatus(rawValue: try p.readUInt8())
            let handle = try p.readUInt16LE() & 0x0FFF
            return .disconnectionComplete(
                status: status, handle: handle, reason: HCIStatus(rawValue: try p.readUInt8()))
        case HCIEventCode.leMeta:
            p.context = .leMetaSubevent
            return .leMeta(subevent: try p.readUInt8())
        default:
            return .other(code: frame.code)
        }
    }
}
