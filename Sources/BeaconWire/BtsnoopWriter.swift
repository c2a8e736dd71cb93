/// Builds btsnoop v1 bytes (datalink 1002, H4) for `beacon2mqtt record`: the file header once,
/// then one record per packet. Pure: the caller writes the bytes. All fields are big-endian.
import Vocabulary

public enum BtsnoopWriter {
    public static let datalinkH4: UInt32 = 1002

    /// "btsnoop\0", version 1, datalink 1002.
    public static func fileHeader() -> [UInt8] {
        var out: [UInt8] = Array("btsnoop".utf8) + [0]
        appendBE(UInt32(1), to: &out)
        appendBE(datalinkH4, to: &out)
        return out
    }

    /// One record: original length, included length, flags, cumulative drops, timestamp, packet.
    /// Flags bit 0 = received (controller → host), bit 1 = command or event.
    public static func record(_ packet: CapturedPacket) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(24 + packet.bytes.count)
        let length = UInt32(truncatingIfNeeded: packet.bytes.count)
        appendBE(length, to: &out)
        appendBE(length, to: &out)
        let indicator = packet.bytes.first ?? 0
        let isCommandOrEvent = indicator == HCIPacketType.command.rawValue || indicator == HCIPacketType.event.rawValue
        appendBE(UInt32((packet.incoming ? 1 : 0) | (isCommandOrEvent ? 2 : 0)), to: &out)
        appendBE(UInt32(0), to: &out)
        appendBE(UInt64(bitPattern: packet.timestamp.microseconds &+ CaptureFormat.btsnoopUnixEpochOffset), to: &out)
        out += packet.bytes
        return out
    }

    static func appendBE<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        var v = value.bigEndian
        withUnsafeBytes(of: &v) { out.append(contentsOf: $0) }
    }
}
