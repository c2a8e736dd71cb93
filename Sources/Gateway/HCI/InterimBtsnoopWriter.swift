import BeaconWire
import Foundation

/// Writes HCI packets as btsnoop version 1, datalink 1002 (HCI UART/H4), as `btmon -w` does.
///
/// Interim: replaced by BeaconWire's `BtsnoopWriter` when it lands. Layout: the 16-byte header
/// ("btsnoop\0", version 1, datalink), then per packet a 24-byte record header (original length,
/// included length, flags, cumulative drops, timestamp in µs since 0000-01-01) and the bytes.
/// All fields big-endian.
final class InterimBtsnoopWriter {
    /// Microseconds between 0000-01-01 (btsnoop's epoch) and 1970-01-01.
    static let epochOffset: Int64 = 0x00DC_DDB3_0F2F_8000
    /// A failed open or write, with the system's reason.
    struct WriteError: Error, CustomStringConvertible {
        var description: String
    }

    private let handle: FileHandle

    init(path: String) throws(WriteError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(description: String(cString: strerror(errno))) }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var header: [UInt8] = Array("btsnoop".utf8) + [0]
        header.appendBigEndian(UInt32(1))
        header.appendBigEndian(UInt32(1002))
        do { try handle.write(contentsOf: header) } catch { throw WriteError(description: "\(error)") }
    }

    /// Flags bit 0: direction (1 = received); bit 1: command or event (vs. data).
    func write(_ packet: CapturedPacket) throws {
        var record: [UInt8] = []
        record.reserveCapacity(24 + packet.bytes.count)
        let isCommandOrEvent = packet.bytes.first == 0x01 || packet.bytes.first == 0x04
        let flags = UInt32(packet.incoming ? 1 : 0) | (isCommandOrEvent ? 2 : 0)
        record.appendBigEndian(UInt32(packet.bytes.count))
        record.appendBigEndian(UInt32(packet.bytes.count))
        record.appendBigEndian(flags)
        record.appendBigEndian(UInt32(0))
        record.appendBigEndian(UInt64(bitPattern: packet.timestamp.microseconds + Self.epochOffset))
        record.append(contentsOf: packet.bytes)
        try handle.write(contentsOf: record)
    }

    func close() throws { try handle.close() }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
