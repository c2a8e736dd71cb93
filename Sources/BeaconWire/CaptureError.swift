/// Why a capture file could not be read further. The reader has already returned every packet
/// before `offset`, the byte offset of the damage in the file.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    case unrecognizedFormat
    /// `what` needed `needed` bytes at `offset`, only `available` remained.
    case truncated(what: String, needed: Int, available: Int, offset: Int)
    /// A structurally impossible value (bad block length, bad hex, unknown interface…).
    case malformed(what: String, offset: Int)
    /// A datalink / link type that does not carry HCI packets this reader understands.
    case unsupportedLinkType(UInt32, offset: Int)

    public var offset: Int {
        switch self {
        case .unrecognizedFormat: return 0
        case .truncated(_, _, _, let o), .malformed(_, let o), .unsupportedLinkType(_, let o): return o
        }
    }

    public var description: String {
        switch self {
        case .unrecognizedFormat:
            return "unrecognized capture format (expected btsnoop, pcap, pcapng or hcidump --raw text)"
        case .truncated(let what, let needed, let available, let offset):
            return "truncated \(what) at offset \(offset): needs \(needed) bytes, \(available) available"
        case .malformed(let what, let offset):
            return "malformed \(what) at offset \(offset)"
        case .unsupportedLinkType(let type, let offset):
            return "unsupported link type \(type) at offset \(offset)"
        }
    }
}
