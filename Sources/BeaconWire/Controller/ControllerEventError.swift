/// Why an HCI event packet could not be parsed. Offsets count from the first byte given
/// (the H4 indicator, when present).
public enum ControllerEventError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The H4 indicator is not 0x04 (HCI Event packet).
    case notAnEvent(indicator: UInt8)
    /// Fewer bytes than a field needs.
    case truncated(needed: Int, available: Int, offset: Int)
    /// Parameter_Total_Length disagrees with the bytes that follow the header.
    case lengthMismatch(declared: Int, available: Int)

    public var description: String {
        switch self {
        case .notAnEvent(let indicator):
            return "not an HCI event packet (indicator 0x\(Hex.string([indicator])))"
        case .truncated(let needed, let available, let offset):
            return "truncated HCI event: needed \(needed) bytes at offset \(offset), \(available) available"
        case .lengthMismatch(let declared, let available):
            return "HCI event declares \(declared) parameter bytes but carries \(available)"
        }
    }
}
