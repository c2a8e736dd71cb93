/// Iterates the HCI packets of a capture held in memory, detecting the container from its first
/// bytes (see `CaptureFormat`). Every packet comes out with its H4 indicator byte first.
///
/// A damaged file yields every packet before the damage, then `next()` throws a `CaptureError`
/// with the byte offset; after an error or the end, `next()` returns nil.
///
/// Streaming (`init(streaming:)`): the reader holds only the bytes not yet read plus what was fed
/// (`feed`), so a large capture or a pipe is read with a bounded buffer. `next()` hands out a record
/// only once it is complete in the buffer, and returns nil with `needsInput` set when it needs more
/// bytes; `endOfInput()` says there are none, after which a short record is damage as usual.
public struct CaptureReader: Sendable {
    public let format: CaptureFormat
    private var bytes: [UInt8]
    private var position: Int
    private var finished = false
    /// Streaming: false until `endOfInput()`. The whole-file initialiser starts complete.
    private var complete = true
    /// Streaming: the file offset of `bytes[0]` (the buffer drops what was read).
    private var base = 0
    /// Streaming: `next()` returned nil because the next record is not complete in the buffer yet.
    public private(set) var needsInput = false
    /// Records read so far, for error messages (1-based numbering of the failing one).
    private var recordCount = 0
    // pcap
    private var bigEndian = false
    private var pcapNanoseconds = false
    // pcapng: per interface, link type and timestamp resolution
    private var interfaces: [(linkType: UInt32, resolution: UInt8)] = []
    private var lastTimestamp = Timestamp(microseconds: 0)

    /// hcidump text carries no time: packets are stamped `syntheticInterval` apart from 0.
    public static let syntheticInterval = TimeSpan.milliseconds(100)

    public init(_ bytes: [UInt8]) throws(CaptureError) {
        self.bytes = bytes
        if bytes.starts(with: Array("btsnoop".utf8) + [0]) {
            guard bytes.count >= 16 else {
                throw .truncated(what: "btsnoop header", needed: 16, available: bytes.count, offset: 0)
            }
            let datalink = Self.uint32(bytes, at: 12, bigEndian: true)
            guard datalink == 1001 || datalink == 1002 || datalink == 2001 else {
                throw .unsupportedLinkType(datalink, offset: 12)
            }
            format = .btsnoop(datalink: datalink)
            position = 16
        } else if bytes.starts(with: [0x0A, 0x0D, 0x0D, 0x0A]) {
            format = .pcapng
            position = 0
        } else if let (big, nanos) = Self.pcapMagic(bytes) {
            guard bytes.count >= 24 else {
                throw .truncated(what: "pcap header", needed: 24, available: bytes.count, offset: 0)
            }
            let linkType = Self.uint32(bytes, at: 20, bigEndian: big) & 0x0FFF_FFFF
            guard linkType == CaptureFormat.linkTypeH4 || linkType == CaptureFormat.linkTypeH4WithPHDR
                || linkType == CaptureFormat.linkTypeLinuxMonitor
            else { throw .unsupportedLinkType(linkType, offset: 20) }
            format = .pcap(linkType: linkType)
            bigEndian = big
            pcapNanoseconds = nanos
            position = 24
        } else if Self.looksLikeHcidump(bytes) {
            format = .hcidumpText
            position = 0
        } else {
            throw .unrecognizedFormat
        }
    }

    /// Starts reading a capture from its first bytes: at least 4,096 of them (format detection looks
    /// that far for hcidump text), or the whole file when `isWholeFile`.
    public init(streaming prefix: [UInt8], isWholeFile: Bool) throws(CaptureError) {
        try self.init(prefix)
        complete = isWholeFile
    }

    /// Streaming: the next bytes of the file. Drops the bytes already read, so the buffer stays bounded.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        if position > 0 {
            bytes.removeSubrange(0..<position)
            base += position
            position = 0
        }
        bytes.append(contentsOf: chunk)
        needsInput = false
    }

    /// Streaming: there are no more bytes; a record cut short is now reported as damage.
    public mutating func endOfInput() {
        complete = true
        needsInput = false
    }

    public mutating func next() throws(CaptureError) -> CapturedPacket? {
        guard !finished else { return nil }
        if format == .hcidumpText, !hasRecord() { return nil }
        do throws(CaptureError) {
            let packet: CapturedPacket?
            switch format {
            case .btsnoop(let datalink): packet = try nextBtsnoop(datalink: datalink)
            case .pcap(let linkType): packet = try nextPcap(linkType: linkType)
            case .pcapng: packet = try nextPcapng()
            case .hcidumpText: packet = try nextHcidump()
            }
            if packet == nil, !needsInput { finished = true }
            return packet
        } catch {
            finished = true
            throw error.shifted(by: base)
        }
    }

    /// Whether a record starts at `position`; streaming, false with `needsInput` set while that
    /// record is not whole in the buffer yet.
    private mutating func hasRecord() -> Bool {
        if !complete, !recordIsBuffered() {
            needsInput = true
            return false
        }
        return position < bytes.count
    }

    /// Streaming: whether the next record (with any records skipped before it) is whole in the
    /// buffer, so the parsers below, written for a whole file, see what they would see in one.
    private func recordIsBuffered() -> Bool {
        let at = position
        let remaining = bytes.count - at
        let length: Int
        switch format {
        case .btsnoop:
            guard remaining >= 24 else { return false }
            length = 24 + Int(Self.uint32(bytes, at: at + 4, bigEndian: true))
        case .pcap:
            guard remaining >= 16 else { return false }
            length = 16 + Int(Self.uint32(bytes, at: at + 8, bigEndian: bigEndian))
        case .pcapng:
            guard remaining >= 12 else { return false }
            var big = bigEndian
            // A Section Header Block sets the byte order its own length is written in.
            if Self.uint32(bytes, at: at, bigEndian: false) == 0x0A0D_0D0A { big = bytes[at + 8] == 0x1A }
            length = Int(Self.uint32(bytes, at: at + 4, bigEndian: big))
        case .hcidumpText:
            return hcidumpPacketIsBuffered()
        }
        // A record the parsers skip (no HCI packet in it) is whole too: they look at one at a time.
        return remaining >= length
    }

    /// hcidump text: a packet is whole once the line that ends it (or the end of input) is buffered.
    private func hcidumpPacketIsBuffered() -> Bool {
        var at = position
        var started = false
        while true {
            guard let newline = bytes[at...].firstIndex(of: 0x0A) else { return false }
            var first = at
            while first < newline, bytes[first] == 0x20 || bytes[first] == 0x09 || bytes[first] == 0x0D { first += 1 }
            let isStart = first < newline && (bytes[first] == UInt8(ascii: ">") || bytes[first] == UInt8(ascii: "<"))
            if started, isStart || first == at || first == newline { return true }
            if isStart { started = true }
            at = newline + 1
        }
    }

    /// Reads the whole capture: the packets before any damage, and the error, if any.
    public static func readAll(_ bytes: [UInt8]) -> (packets: [CapturedPacket], error: CaptureError?) {
        var packets: [CapturedPacket] = []
        do throws(CaptureError) {
            var reader = try CaptureReader(bytes)
            while let p = try reader.next() { packets.append(p) }
            return (packets, nil)
        } catch {
            return (packets, error)
        }
    }

    // MARK: - btsnoop

    private mutating func nextBtsnoop(datalink: UInt32) throws(CaptureError) -> CapturedPacket? {
        while true {
            guard hasRecord() else { return nil }
            recordCount += 1
            // `need` takes its text as an autoclosure: built only for an error, not per record.
            try need(24, "btsnoop record \(recordCount)")
            let included = Int(Self.uint32(bytes, at: position + 4, bigEndian: true))
            let flags = Self.uint32(bytes, at: position + 8, bigEndian: true)
            let stamp = Int64(bitPattern: Self.uint64(bytes, at: position + 16, bigEndian: true))
            try need(24 + included, "btsnoop record \(recordCount)")
            let body = bytes[(position + 24)..<(position + 24 + included)]
            position += 24 + included
            let timestamp = Timestamp(microseconds: stamp &- CaptureFormat.btsnoopUnixEpochOffset)
            switch datalink {
            case 1001:
                // H1: the type comes from the flags (bit 1 = command/event, bit 0 = received).
                let received = flags & 1 != 0
                let indicator: UInt8 = flags & 2 == 0 ? 0x02 : (received ? 0x04 : 0x01)
                return CapturedPacket(timestamp: timestamp, bytes: Self.prefixed(indicator, body), incoming: received)
            case 2001:
                guard let (indicator, incoming) = CaptureFormat.monitorPacket(opcode: UInt16(truncatingIfNeeded: flags))
                else { continue }
                return CapturedPacket(timestamp: timestamp, bytes: Self.prefixed(indicator, body), incoming: incoming)
            default:
                guard !body.isEmpty else { continue }
                return CapturedPacket(timestamp: timestamp, bytes: Array(body), incoming: flags & 1 != 0)
            }
        }
    }

    /// `[indicator] + body` in one allocation (the literal and the sum were two per packet).
    private static func prefixed(_ indicator: UInt8, _ body: ArraySlice<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: body.count + 1) { buffer, count in
            buffer[0] = indicator
            _ = UnsafeMutableBufferPointer(rebasing: buffer[1...]).initialize(fromContentsOf: body)
            count = body.count + 1
        }
    }

    // MARK: - pcap

    private static func pcapMagic(_ bytes: [UInt8]) -> (bigEndian: Bool, nanoseconds: Bool)? {
        guard bytes.count >= 4 else { return nil }
        switch Array(bytes[0..<4]) {
        case [0xD4, 0xC3, 0xB2, 0xA1]: return (false, false)
        case [0xA1, 0xB2, 0xC3, 0xD4]: return (true, false)
        case [0x4D, 0x3C, 0xB2, 0xA1]: return (false, true)
        case [0xA1, 0xB2, 0x3C, 0x4D]: return (true, true)
        default: return nil
        }
    }

    private mutating func nextPcap(linkType: UInt32) throws(CaptureError) -> CapturedPacket? {
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
                linkType, bytes[(recordStart + 16)..<position], Timestamp(microseconds: micros), offset: recordStart)
            {
                return packet
            }
        }
    }

    /// Turns one link-layer frame into an H4 packet; nil when the frame carries no HCI packet.
    private func linkPacket(_ linkType: UInt32, _ frame: ArraySlice<UInt8>, _ timestamp: Timestamp, offset: Int)
        throws(CaptureError) -> CapturedPacket?
    {
        let start = frame.startIndex
        switch linkType {
        case CaptureFormat.linkTypeH4WithPHDR:
            guard frame.count >= 4 else {
                throw .truncated(what: "H4 pseudo-header", needed: 4, available: frame.count, offset: offset)
            }
            guard frame.count > 4 else { return nil }
            let incoming = Self.uint32(bytes, at: start, bigEndian: true) != 0
            return CapturedPacket(timestamp: timestamp, bytes: Array(frame[(start + 4)...]), incoming: incoming)
        case CaptureFormat.linkTypeH4:
            guard let indicator = frame.first else { return nil }
            // No direction field: commands and outgoing data are the host's; events come in.
            return CapturedPacket(timestamp: timestamp, bytes: Array(frame), incoming: indicator != 0x01)
        case CaptureFormat.linkTypeLinuxMonitor:
            guard frame.count >= 4 else {
                throw .truncated(what: "monitor header", needed: 4, available: frame.count, offset: offset)
            }
            let opcode = UInt16(frame[start + 2]) << 8 | UInt16(frame[start + 3])
            guard let (indicator, incoming) = CaptureFormat.monitorPacket(opcode: opcode) else { return nil }
            return CapturedPacket(timestamp: timestamp, bytes: Self.prefixed(indicator, frame[(start + 4)...]), incoming: incoming)
        default:
            throw .unsupportedLinkType(linkType, offset: offset)
        }
    }

    // MARK: - pcapng

    private mutating func nextPcapng() throws(CaptureError) -> CapturedPacket? {
        while true {
            guard hasRecord() else { return nil }
            recordCount += 1
            let blockStart = position
            try need(12, "pcapng block")
            if Self.uint32(bytes, at: blockStart, bigEndian: false) == 0x0A0D_0D0A {
                // Section Header Block: its byte-order magic decides the order of everything in the section.
                switch Array(bytes[(blockStart + 8)..<(blockStart + 12)]) {
                case [0x4D, 0x3C, 0x2B, 0x1A]: bigEndian = false
                case [0x1A, 0x2B, 0x3C, 0x4D]: bigEndian = true
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
                guard linkType == CaptureFormat.linkTypeH4 || linkType == CaptureFormat.linkTypeH4WithPHDR
                    || linkType == CaptureFormat.linkTypeLinuxMonitor
                else { throw .unsupportedLinkType(linkType, offset: body.lowerBound) }
                interfaces.append((linkType, interfaceResolution(options: (body.lowerBound + 8)..<body.upperBound)))
            case 6:  // Enhanced Packet Block
                guard body.count >= 20 else { throw .malformed(what: "pcapng packet block", offset: blockStart) }
                let interface = Int(uint32FileOrder(at: body.lowerBound))
                guard interface < interfaces.count else {
                    throw .malformed(what: "pcapng interface id \(interface)", offset: body.lowerBound)
                }
                let ticks = UInt64(uint32FileOrder(at: body.lowerBound + 4)) << 32 | UInt64(uint32FileOrder(at: body.lowerBound + 8))
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
                    interfaces[interface].linkType, bytes[dataStart..<(dataStart + captured)], timestamp,
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
                    first.linkType, bytes[dataStart..<(dataStart + captured)], lastTimestamp, offset: blockStart)
                {
                    return p
                }
            default:
                continue  // SHB handled above; statistics, name resolution, custom blocks carry no packets
            }
        }
    }

    /// `if_tsresol` (option 9): bit 7 clear = 10^-n s, set = 2^-n s; default 10^-6.
    private func interfaceResolution(options: Range<Int>) -> UInt8 {
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

    // MARK: - hcidump --raw text

    private static func looksLikeHcidump(_ bytes: [UInt8]) -> Bool {
        var atLineStart = true
        for byte in bytes.prefix(4096) {
            if atLineStart && (byte == UInt8(ascii: ">") || byte == UInt8(ascii: "<")) { return true }
            if byte == 0 { return false }
            atLineStart = byte == 0x0A || (atLineStart && (byte == 0x20 || byte == 0x09 || byte == 0x0D))
        }
        return false
    }

    /// A packet starts on a line whose first non-blank character is `>` (received) or `<` (sent);
    /// indented lines after it continue it. Any other line ends the packet and is ignored.
    private mutating func nextHcidump() throws(CaptureError) -> CapturedPacket? {
        var packet: [UInt8] = []
        var incoming = true
        var started = false
        while position < bytes.count {
            let lineStart = position
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var at = lineStart
            while at < lineEnd, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0D { at += 1 }
            let indented = at > lineStart
            let marker = at < lineEnd ? bytes[at] : 0
            let isStart = marker == UInt8(ascii: ">") || marker == UInt8(ascii: "<")
            if started && (isStart || !indented || at == lineEnd) { break }
            position = min(lineEnd + 1, bytes.count)
            guard started || isStart else { continue }
            if isStart {
                started = true
                incoming = marker == UInt8(ascii: ">")
                at += 1
            }
            try Self.appendHex(bytes, from: at, to: lineEnd, into: &packet)
        }
        guard started else { return nil }
        recordCount += 1
        let stamp = Timestamp(microseconds: 0) + Self.syntheticInterval * Int64(recordCount - 1)
        return CapturedPacket(timestamp: stamp, bytes: packet, incoming: incoming)
    }

    private static func appendHex(_ bytes: [UInt8], from: Int, to end: Int, into out: inout [UInt8])
        throws(CaptureError)
    {
        var at = from
        while at < end {
            let c = bytes[at]
            if c == 0x20 || c == 0x09 || c == 0x0D {
                at += 1
                continue
            }
            guard at + 1 < end, let high = hexValue(c), let low = hexValue(bytes[at + 1]),
                at + 2 == end || [0x20, 0x09, 0x0D].contains(bytes[at + 2])
            else { throw .malformed(what: "hcidump hex byte", offset: at) }
            out.append(high << 4 | low)
            at += 2
        }
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x37
        case 0x61...0x66: return c - 0x57
        default: return nil
        }
    }

    // MARK: - Byte access

    private func need(_ count: Int, _ what: @autoclosure () -> String) throws(CaptureError) {
        let available = bytes.count - position
        guard count <= available else {
            throw .truncated(what: what(), needed: count, available: available, offset: position)
        }
    }

    /// Reads in the byte order of the pcap file / pcapng section (`bigEndian`), as those formats define.
    private func uint16FileOrder(at offset: Int) -> UInt16 {
        let a = UInt16(bytes[offset])
        let b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    private func uint32FileOrder(at offset: Int) -> UInt32 { Self.uint32(bytes, at: offset, bigEndian: bigEndian) }

    static func uint32(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt32 {
        var value: UInt32 = 0
        for i in 0..<4 {
            let byte = UInt32(bytes[offset + (bigEndian ? i : 3 - i)])
            value = value << 8 | byte
        }
        return value
    }

    static func uint64(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt64 {
        let first = UInt64(uint32(bytes, at: offset, bigEndian: bigEndian))
        let second = UInt64(uint32(bytes, at: offset + 4, bigEndian: bigEndian))
        return bigEndian ? first << 32 | second : second << 32 | first
    }
}

extension CaptureError {
    /// The same error with its offset moved by `base` (a streaming reader's buffer starts there).
    fileprivate func shifted(by base: Int) -> CaptureError {
        guard base != 0 else { return self }
        switch self {
        case .unrecognizedFormat: return self
        case .truncated(let what, let needed, let available, let offset):
            return .truncated(what: what, needed: needed, available: available, offset: offset + base)
        case .malformed(let what, let offset): return .malformed(what: what, offset: offset + base)
        case .unsupportedLinkType(let type, let offset): return .unsupportedLinkType(type, offset: offset + base)
        }
    }
}
