/// btsnoop records (RFC 1761-style header, 24-byte big-endian record header), H4, H1 and Linux monitor datalinks.
import Vocabulary

extension CaptureReader {
    mutating func nextBtsnoop(datalink: UInt32) throws(CaptureError) -> Record? {
        while true {
            guard hasRecord() else { return nil }
            recordCount += 1
            // `need` takes its text as an autoclosure: built only for an error, not per record.
            try need(24, "btsnoop record \(recordCount)")
            let included = Int(ByteReader.uint32(bytes, at: position + 4, .bigEndian))
            let flags = ByteReader.uint32(bytes, at: position + 8, .bigEndian)
            let stamp = Int64(bitPattern: ByteReader.uint64(bytes, at: position + 16, .bigEndian))
            try need(24 + included, "btsnoop record \(recordCount)")
            let body = (position + 24)..<(position + 24 + included)
            position += 24 + included
            let timestamp = Timestamp(microseconds: stamp &- CaptureFormat.btsnoopUnixEpochOffset)
            switch datalink {
            case 1001:
                // H1: the type comes from the flags (bit 1 = command/event, bit 0 = received).
                let received = flags & 1 != 0
                let indicator: UInt8 = flags & 2 == 0 ? 0x02 : (received ? 0x04 : 0x01)
                return Record(timestamp: timestamp, bytes: .buffered(indicator: indicator, body), incoming: received)
            case 2001:
                guard let (indicator, incoming) = CaptureFormat.monitorPacket(opcode: UInt16(truncatingIfNeeded: flags))
                else { continue }
                return Record(timestamp: timestamp, bytes: .buffered(indicator: indicator, body), incoming: incoming)
            default:
                guard !body.isEmpty else { continue }
                return Record(timestamp: timestamp, bytes: .buffered(indicator: nil, body), incoming: flags & 1 != 0)
            }
        }
    }

    /// `[indicator] + body` in one allocation (the literal and the sum were two per packet).
    static func prefixed(_ indicator: UInt8, _ body: ArraySlice<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: body.count + 1) { buffer, count in
            buffer[0] = indicator
            _ = UnsafeMutableBufferPointer(rebasing: buffer[1...]).initialize(fromContentsOf: body)
            count = body.count + 1
        }
    }
}
