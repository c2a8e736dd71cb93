/// pcap records in the file's byte order, and the link-layer frames pcap and pcapng share.
import Vocabulary

extension CaptureReader {
    static func pcapMagic(_ bytes: [UInt8]) -> (order: ByteReader.ByteOrder, nanoseconds: Bool)? {
        guard bytes.count >= 4 else { return nil }
        switch Array(bytes[0..<4]) {
        case [0xD4, 0xC3, 0xB2, 0xA1]: return (.littleEndian, false)
        case [0xA1, 0xB2, 0xC3, 0xD4]: return (.bigEndian, false)
        case [0x4D, 0x3C, 0xB2, 0xA1]: return (.littleEndian, true)
        case [0xA1, 0xB2, 0x3C, 0x4D]: return (.bigEndian, true)
        default: return nil
        }
    }

    mutating func nextPcap(linkType: UInt32) throws(CaptureError) -> Record? {
        while true {
            guard hasRecord() else { return nil }
            recordCount += 1
            try need(16, "pcap record \(recordCount)")
            let seconds = Int64(uint32FileOrder(at: position))
            let fraction = Int64(uint32FileOrder(at: position + 4))
            let included = Int(uint32FileOrder(at: position + 8))
            try need(16 + included, "pcap record \(recordCount)")
            let recordStart = position
            position += 16 + included
            let micros = seconds * 1_000_000 + (pcapNanoseconds ? fraction / 1000 : fraction)
            if let packet = try linkPacket(
                linkType, (recordStart + 16)..<position, Timestamp(microseconds: micros), offset: recordStart)
            {
                return packet
            }
        }
    }

    /// Turns one link-layer frame into an H4 packet; nil when the frame carries no HCI packet.
    func linkPacket(
        _ linkType: UInt32, _ frame: Range<Int>, _ timestamp: Timestamp, offset: Int
    )
        throws(CaptureError) -> Record?
    {
        let start = frame.lowerBound
        switch linkType {
        case CaptureFormat.linkTypeH4WithPHDR:
            guard frame.count >= 4 else {
                throw .truncated(what: "H4 pseudo-header", needed: 4, available: frame.count, offset: offset)
            }
            guard frame.count > 4 else { return nil }
            let incoming = ByteReader.uint32(bytes, at: start, .bigEndian) != 0
            return Record(
                timestamp: timestamp, bytes: .buffered(indicator: nil, (start + 4)..<frame.upperBound),
                incoming: incoming)
        case CaptureFormat.linkTypeH4:
            guard !frame.isEmpty else { return nil }
            // No direction field: commands and outgoing data are the host's; events come in.
            return Record(timestamp: timestamp, bytes: .buffered(indicator: nil, frame), incoming: bytes[start] != 0x01)
        case CaptureFormat.linkTypeLinuxMonitor:
            guard frame.count >= 4 else {
                throw .truncated(what: "monitor header", needed: 4, available: frame.count, offset: offset)
            }
            let opcode = ByteReader.uint16(bytes, at: start + 2, .bigEndian)
            guard let (indicator, incoming) = CaptureFormat.monitorPacket(opcode: opcode) else { return nil }
            return Record(
                timestamp: timestamp, bytes: .buffered(indicator: indicator, (start + 4)..<frame.upperBound),
                incoming: incoming)
        default:
            throw .unsupportedLinkType(linkType, offset: offset)
        }
    }
}
