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
import Vocabulary

public struct CaptureReader: Sendable {
    public let format: CaptureFormat
    var bytes: [UInt8]
    var position: Int
    var finished = false
    /// Streaming: false until `endOfInput()`. The whole-file initialiser starts complete.
    var complete = true
    /// Streaming: the file offset of `bytes[0]` (the buffer drops what was read).
    var base = 0
    /// Streaming: `next()` returned nil because the next record is not complete in the buffer yet.
    public private(set) var needsInput = false
    /// Records read so far, for error messages (1-based numbering of the failing one).
    var recordCount = 0
    /// pcap: the file's byte order; pcapng: the current section's.
    var byteOrder = ByteReader.ByteOrder.littleEndian
    var pcapNanoseconds = false
    // pcapng: per interface, link type and timestamp resolution
    var interfaces: [(linkType: UInt32, resolution: UInt8)] = []
    var lastTimestamp = Timestamp(microseconds: 0)
    /// hcidump: the last packet parsed from its hex text.
    var decoded: [UInt8] = []

    /// hcidump text carries no time: packets are stamped `syntheticInterval` apart from 0.
    public static let syntheticInterval = TimeSpan.milliseconds(100)

    public init(_ bytes: [UInt8]) throws(CaptureError) {
        self.bytes = bytes
        if bytes.starts(with: Array("btsnoop".utf8) + [0]) {
            guard bytes.count >= 16 else {
                throw .truncated(what: "btsnoop header", needed: 16, available: bytes.count, offset: 0)
            }
            let datalink = ByteReader.uint32(bytes, at: 12, .bigEndian)
            guard datalink == 1001 || datalink == 1002 || datalink == 2001 else {
                throw .unsupportedLinkType(datalink, offset: 12)
            }
            format = .btsnoop(datalink: datalink)
            position = 16
        } else if bytes.starts(with: [0x0A, 0x0D, 0x0D, 0x0A]) {
            format = .pcapng
            position = 0
        } else if let (order, nanos) = Self.pcapMagic(bytes) {
            guard bytes.count >= 24 else {
                throw .truncated(what: "pcap header", needed: 24, available: bytes.count, offset: 0)
            }
            let linkType = ByteReader.uint32(bytes, at: 20, order) & 0x0FFF_FFFF
            guard
                linkType == CaptureFormat.linkTypeH4 || linkType == CaptureFormat.linkTypeH4WithPHDR
                    || linkType == CaptureFormat.linkTypeLinuxMonitor
            else { throw .unsupportedLinkType(linkType, offset: 20) }
            format = .pcap(linkType: linkType)
            byteOrder = order
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
        guard let record = try nextRecord() else { return nil }
        let bytes: [UInt8]
        switch record.bytes {
        case .buffered(nil, let body): bytes = Array(self.bytes[body])
        case .buffered(let indicator?, let body): bytes = Self.prefixed(indicator, self.bytes[body])
        case .decoded: bytes = decoded
        }
        return CapturedPacket(timestamp: record.timestamp, bytes: bytes, incoming: record.incoming)
    }

    /// `next()`, appending the packet to `batch` straight from the reader's buffer (no array of its
    /// own); returns its timestamp, or nil as `next()` does.
    public mutating func next(into batch: inout PacketBatch) throws(CaptureError) -> Timestamp? {
        guard let record = try nextRecord() else { return nil }
        switch record.bytes {
        case .buffered(let indicator, let body):
            bytes.withUnsafeBytes { raw in
                batch.append(
                    timestamp: record.timestamp, incoming: record.incoming, indicator: indicator,
                    body: UnsafeRawBufferPointer(rebasing: raw[body]))
            }
        case .decoded:
            decoded.withUnsafeBytes { batch.append(timestamp: record.timestamp, incoming: record.incoming, bytes: $0) }
        }
        return record.timestamp
    }

    /// One packet found by the format's parser, before it is copied out. Plain values only, so
    /// finding one costs no reference counting.
    struct Record {
        enum Bytes {
            /// In `bytes`, after an H4 indicator the container keeps apart (nil: the body has it).
            case buffered(indicator: UInt8?, Range<Int>)
            /// In `decoded`, parsed out of the container (hcidump's hex text).
            case decoded
        }
        var timestamp: Timestamp
        var bytes: Bytes
        var incoming: Bool
    }

    private mutating func nextRecord() throws(CaptureError) -> Record? {
        guard !finished else { return nil }
        if format == .hcidumpText, !hasRecord() { return nil }
        do throws(CaptureError) {
            let record: Record?
            switch format {
            case .btsnoop(let datalink): record = try nextBtsnoop(datalink: datalink)
            case .pcap(let linkType): record = try nextPcap(linkType: linkType)
            case .pcapng: record = try nextPcapng()
            case .hcidumpText: record = try nextHcidump()
            }
            if record == nil, !needsInput { finished = true }
            return record
        } catch {
            finished = true
            throw error.shifted(by: base)
        }
    }

    /// Whether a record starts at `position`; streaming, false with `needsInput` set while that
    /// record is not whole in the buffer yet.
    mutating func hasRecord() -> Bool {
        if !complete, !recordIsBuffered() {
            needsInput = true
            return false
        }
        return position < bytes.count
    }

    /// Streaming: whether the next record (with any records skipped before it) is whole in the
    /// buffer, so the parsers below, written for a whole file, see what they would see in one.
    func recordIsBuffered() -> Bool {
        let at = position
        let remaining = bytes.count - at
        let length: Int
        switch format {
        case .btsnoop:
            guard remaining >= 24 else { return false }
            length = 24 + Int(ByteReader.uint32(bytes, at: at + 4, .bigEndian))
        case .pcap:
            guard remaining >= 16 else { return false }
            length = 16 + Int(ByteReader.uint32(bytes, at: at + 8, byteOrder))
        case .pcapng:
            guard remaining >= 12 else { return false }
            var order = byteOrder
            // A Section Header Block sets the byte order its own length is written in.
            if ByteReader.uint32(bytes, at: at, .littleEndian) == 0x0A0D_0D0A {
                order = bytes[at + 8] == 0x1A ? .bigEndian : .littleEndian
            }
            length = Int(ByteReader.uint32(bytes, at: at + 4, order))
        case .hcidumpText:
            return hcidumpPacketIsBuffered()
        }
        // A record the parsers skip (no HCI packet in it) is whole too: they look at one at a time.
        return remaining >= length
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

    // MARK: - Byte access

    func need(_ count: Int, _ what: @autoclosure () -> String) throws(CaptureError) {
        let available = bytes.count - position
        guard count <= available else {
            throw .truncated(what: what(), needed: count, available: available, offset: position)
        }
    }

    /// A field in the byte order of the pcap file / pcapng section (`byteOrder`), as those formats define.
    func uint16FileOrder(at offset: Int) -> UInt16 { ByteReader.uint16(bytes, at: offset, byteOrder) }
    func uint32FileOrder(at offset: Int) -> UInt32 { ByteReader.uint32(bytes, at: offset, byteOrder) }
}

extension CaptureError {
    /// The same error with its offset moved by `base` (a streaming reader's buffer starts there).
    func shifted(by base: Int) -> CaptureError {
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
