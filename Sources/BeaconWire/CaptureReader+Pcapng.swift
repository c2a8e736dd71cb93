/// pcapng blocks: Section Header (byte order), Interface Description (link type, `if_tsresol`),
/// Enhanced and Simple Packet Blocks.
import Vocabulary

extension CaptureReader {
    mutating func nextPcapng() throws(CaptureError) -> Record? {
        while true {
            guard hasRecord() else { return nil }
            recordCount += 1
            let blockStart = position
            try need(12, "pcapng block")
            if ByteReader.uint32(bytes, at: blockStart, .littleEndian) == 0x0A0D_0D0A {
                // Section Header Block: its byte-order magic decides the order of everything in the section.
                switch Array(bytes[(blockStart + 8)..<(blockStart + 12)]) {
                case [0x4D, 0x3C, 0x2B, 0x1A]: byteOrder = .littleEndian
                case [0x1A, 0x2B, 0x3C, 0x4D]: byteOrder = .bigEndian
                default: throw .malformed(what: "pcapng byte-order magic", offset: blockStart + 8)
                }
                interfaces = []
            }
            let type = uint32FileOrder(at: blockStart)
            let length = Int(uint32FileOrder(at: blockStart + 4))
            guard length >= 12, length % 4 == 0 else {
                throw .malformed(what: "pcapng block length \(length)", offset: blockStart + 4)
            }
            try need(length, "pcapng block")
            let body = (blockStart + 8)..<(blockStart + length - 4)
            position += length
            switch type {
            case 1:  // Interface Description Block
                guard body.count >= 8 else { throw .malformed(what: "pcapng interface block", offset: blockStart) }
                let linkType = UInt32(uint16FileOrder(at: body.lowerBound))
                guard
                    linkType == CaptureFormat.linkTypeH4 || linkType == CaptureFormat.linkTypeH4WithPHDR
                        || linkType == CaptureFormat.linkTypeLinuxMonitor
                else { throw .unsupportedLinkType(linkType, offset: body.lowerBound) }
                interfaces.append((linkType, interfaceResolution(options: (body.lowerBound + 8)..<body.upperBound)))
            case 6:  // Enhanced Packet Block
                guard body.count >= 20 else { throw .malformed(what: "pcapng packet block", offset: blockStart) }
                let interface = Int(uint32FileOrder(at: body.lowerBound))
                guard interface < interfaces.count else {
                    throw .malformed(what: "pcapng interface id \(interface)", offset: body.lowerBound)
                }
                let ticks =
                    UInt64(uint32FileOrder(at: body.lowerBound + 4)) << 32
                    | UInt64(uint32FileOrder(at: body.lowerBound + 8))
                let captured = Int(uint32FileOrder(at: body.lowerBound + 12))
                let dataStart = body.lowerBound + 20
                guard captured <= body.upperBound - dataStart else {
                    throw .truncated(
                        what: "pcapng packet data", needed: captured, available: body.upperBound - dataStart,
                        offset: dataStart)
                }
                let timestamp = Self.microseconds(ticks: ticks, resolution: interfaces[interface].resolution)
                lastTimestamp = timestamp
                if let p = try linkPacket(
                    interfaces[interface].linkType, dataStart..<(dataStart + captured), timestamp,
                    offset: blockStart)
                {
                    return p
                }
            case 3:  // Simple Packet Block: no timestamp, interface 0
                guard body.count >= 4, let first = interfaces.first else {
                    throw .malformed(what: "pcapng simple packet block", offset: blockStart)
                }
                let original = Int(uint32FileOrder(at: body.lowerBound))
                let dataStart = body.lowerBound + 4
                let captured = min(original, body.upperBound - dataStart)
                if let p = try linkPacket(
                    first.linkType, dataStart..<(dataStart + captured), lastTimestamp, offset: blockStart)
                {
                    return p
                }
            default:
                continue  // SHB handled above; statistics, name resolution, custom blocks carry no packets
            }
        }
    }

    /// `if_tsresol` (option 9): bit 7 clear = 10^-n s, set = 2^-n s; default 10^-6.
    func interfaceResolution(options: Range<Int>) -> UInt8 {
        var at = options.lowerBound
        while at + 4 <= options.upperBound {
            let code = uint16FileOrder(at: at)
            let length = Int(uint16FileOrder(at: at + 2))
            if code == 0 { break }
            if code == 9, length >= 1, at + 4 < options.upperBound { return bytes[at + 4] }
            at += 4 + (length + 3) / 4 * 4
        }
        return 6
    }

    static func microseconds(ticks: UInt64, resolution: UInt8) -> Timestamp {
        let exponent = Int(resolution & 0x7F)
        var micros: UInt64
        if resolution & 0x80 == 0 {
            var scale: UInt64 = 1
            if exponent >= 6 {
                for _ in 0..<min(exponent - 6, 19) { scale *= 10 }
                micros = ticks / scale
            } else {
                for _ in 0..<(6 - exponent) { scale *= 10 }
                micros = ticks &* scale
            }
        } else {
            let shift = UInt64(min(exponent, 63))
            let whole = ticks >> shift
            let fraction = ticks & ((1 << shift) &- 1)
            micros = whole &* 1_000_000 &+ (fraction.multipliedFullWidth(by: 1_000_000).low >> shift)
        }
        return Timestamp(microseconds: Int64(truncatingIfNeeded: micros))
    }
}
