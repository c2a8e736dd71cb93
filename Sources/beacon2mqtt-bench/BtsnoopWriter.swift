import BeaconWire
import Foundation

/// Writes generated captures as btsnoop (RFC 1761 layout, as `btmon -w` and Android write it),
/// datalink 1002 (HCI UART, H4): every packet keeps its H4 indicator. All header fields are
/// big-endian; timestamps are microseconds since 0000-01-01.
final class BtsnoopWriter {
    /// Microseconds from the btsnoop time base to the Unix epoch (the constant Android, btmon and
    /// Wireshark use).
    static let epochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private(set) var packets = 0

    init(path: String) throws(BenchFailure) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw BenchFailure("cannot create \(path)") }
        self.handle = handle
        buffer.reserveCapacity(1 << 20)
        buffer.append(contentsOf: Array("btsnoop".utf8) + [0])
        append32(1)  // version
        append32(1002)  // datalink: HCI UART (H4)
    }

    /// Appends one controller → host event at `timestamp` (Unix-epoch based).
    func append(_ packet: [UInt8], at timestamp: Timestamp) {
        append32(UInt32(packet.count))  // original length
        append32(UInt32(packet.count))  // included length
        append32(0b11)  // flags: received, command/event
        append32(0)  // cumulative drops
        let t = UInt64(bitPattern: timestamp.microseconds &+ Self.epochOffset)
        for shift in stride(from: 56, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: t >> UInt64(shift))) }
        buffer.append(contentsOf: packet)
        packets += 1
        if buffer.count >= 1 << 20 { flush() }
    }

    func close() {
        flush()
        try? handle.close()
    }

    private func flush() {
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    private func append32(_ v: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
    }
}
