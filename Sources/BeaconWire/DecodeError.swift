/// Why an HCI packet could not be decoded, and where: every case carries the byte offset from the
/// start of the buffer handed to the decoder (the H4 indicator byte, when present, is offset 0).
///
/// Typed (`throws(DecodeError)`) so the hot path never boxes an existential error.
public enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being read when the bytes ran out; numbers in report cases are 1-based.
    public enum Element: Sendable, Equatable, CustomStringConvertible {
        case packetIndicator
        case eventHeader
        case eventParameters
        case leMetaSubevent
        case reportCount
        case legacyReport(Int)
        case directedReport(Int)
        case extendedReport(Int)
        case field(StaticString)

        public var description: String {
            switch self {
            case .packetIndicator: return "packet indicator"
            case .eventHeader: return "event header"
            case .eventParameters: return "event parameters"
            case .leMetaSubevent: return "LE Meta subevent code"
            case .reportCount: return "report count"
            case .legacyReport(let n): return "legacy report \(n)"
            case .directedReport(let n): return "directed report \(n)"
            case .extendedReport(let n): return "extended report \(n)"
            case .field(let name): return name.description
            }
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case (.packetIndicator, .packetIndicator), (.eventHeader, .eventHeader),
                (.eventParameters, .eventParameters), (.leMetaSubevent, .leMetaSubevent),
                (.reportCount, .reportCount):
                return true
            case (.legacyReport(let a), .legacyReport(let b)), (.directedReport(let a), .directedReport(let b)),
                (.extendedReport(let a), .extendedReport(let b)):
                return a == b
            case (.field(let a), .field(let b)):
                return a.description == b.description
            default:
                return false
            }
        }
    }

    /// `needed` bytes were required at `offset` but only `available` remained.
    case truncated(what: Element, needed: Int, available: Int, offset: Int)
    /// The event's Parameter_Total_Length disagrees with the bytes present (Core Spec Vol 4, Part E, §5.4.4).
    case badParameterLength(declared: Int, available: Int, offset: Int)
    /// The first byte is not an H4 packet indicator (Core Spec Vol 4, Part A, §2).
    case unknownPacketIndicator(UInt8, offset: Int)
    /// The packet is empty.
    case empty

    /// Byte offset of the problem.
    public var offset: Int {
        switch self {
        case .truncated(_, _, _, let o), .badParameterLength(_, _, let o), .unknownPacketIndicator(_, let o): return o
        case .empty: return 0
        }
    }

    public var description: String {
        switch self {
        case .truncated(let what, let needed, let available, let offset):
            return "truncated \(what) at offset \(offset): needs \(needed) bytes, \(available) available"
        case .badParameterLength(let declared, let available, let offset):
            return "bad parameter length at offset \(offset): declares \(declared) bytes, \(available) present"
        case .unknownPacketIndicator(let byte, let offset):
            return "unknown H4 packet indicator 0x\(Hex.string([byte])) at offset \(offset)"
        case .empty:
            return "empty packet"
        }
    }
}
