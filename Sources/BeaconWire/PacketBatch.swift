/// HCI packets handed over together, in one buffer: what a source gathered between two wake-ups
/// of the pipeline thread (a replay's due packets, what the HCI socket held). One allocation for
/// the whole batch instead of an array per packet, and the pipeline reads each packet in place.
///
/// Each packet is a record in the buffer (`PacketBatchStorage`): its timestamp (`Int64` microseconds, little-endian), its
/// length (`UInt32`, little-endian), a flags byte (`incomingFlag`: it came from the controller;
/// `framedFlag`: the source framed it already, see `PacketView.isFramedLEMetaEvent`), then its bytes
/// (H4 indicator first, as in `CapturedPacket`).
import Vocabulary

public struct PacketBatch: Sendable, Equatable {
    @usableFromInline var storage: PacketBatchStorage
    /// The bytes the records take in `storage`.
    @usableFromInline var used = 0
    public private(set) var count = 0
    /// Where the last record starts (`moveLast`); -1 after a `moveLast`, found again only if a
    /// second one asks (a replay moves one packet out of a batch it then hands over).
    @usableFromInline var lastRecord = 0

    @usableFromInline static let headerSize = 13
    @usableFromInline static let incomingFlag: UInt8 = 1
    @usableFromInline static let framedFlag: UInt8 = 2

    /// An empty batch with room for `bytes` bytes of records before it grows.
    public init(reservingBytes bytes: Int = 0) {
        storage = PacketBatchStorage(capacity: bytes)
    }

    public init(_ packets: some Sequence<CapturedPacket>) {
        self.init()
        for packet in packets { append(packet) }
    }

    public var isEmpty: Bool { count == 0 }
    /// The bytes the records take, headers included.
    public var byteCount: Int { used }

    public static func == (a: PacketBatch, b: PacketBatch) -> Bool {
        a.count == b.count && a.bytes.elementsEqual(b.bytes)
    }

    @usableFromInline
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage.base, count: used) }

    public mutating func append(_ packet: CapturedPacket) {
        packet.bytes.withUnsafeBytes { append(timestamp: packet.timestamp, incoming: packet.incoming, bytes: $0) }
    }

    /// A packet whose bytes lie elsewhere (a read buffer, a capture chunk); they are copied.
    /// `framedLEMetaEvent`: the caller framed it as `PacketView.isFramedLEMetaEvent` says (the live
    /// source, whose scan procedure reads every event), so the pipeline does not frame it again.
    public mutating func append(
        timestamp: Timestamp, incoming: Bool, bytes: UnsafeRawBufferPointer, framedLEMetaEvent: Bool = false
    ) {
        append(timestamp: timestamp, incoming: incoming, indicator: nil, body: bytes, framed: framedLEMetaEvent)
    }

    /// A packet of `indicator` then `body` (a capture that stores the H4 indicator apart).
    public mutating func append(timestamp: Timestamp, incoming: Bool, indicator: UInt8?, body: UnsafeRawBufferPointer) {
        append(timestamp: timestamp, incoming: incoming, indicator: indicator, body: body, framed: false)
    }

    private mutating func append(
        timestamp: Timestamp, incoming: Bool, indicator: UInt8?, body: UnsafeRawBufferPointer, framed: Bool
    ) {
        let length = body.count + (indicator == nil ? 0 : 1)
        let start = used
        reserve(start + Self.headerSize + length)
        var at = storage.base + start
        at.storeBytes(of: timestamp.microseconds.littleEndian, as: Int64.self)
        (at + 8).storeBytes(of: UInt32(length).littleEndian, as: UInt32.self)
        (at + 12).storeBytes(
            of: (incoming ? Self.incomingFlag : 0) | (framed ? Self.framedFlag : 0), as: UInt8.self)
        at += Self.headerSize
        if let indicator {
            at.storeBytes(of: indicator, as: UInt8.self)
            at += 1
        }
        if let source = body.baseAddress { at.copyMemory(from: source, byteCount: body.count) }
        used = start + Self.headerSize + length
        lastRecord = start
        count += 1
    }

    /// Makes the buffer this batch's own, with room for `bytes` bytes.
    private mutating func reserve(_ bytes: Int) {
        let unique = isKnownUniquelyReferenced(&storage)
        guard !unique || bytes > storage.capacity else { return }
        storage = storage.copy(
            used, capacity: bytes > storage.capacity ? max(bytes, 2 * storage.capacity) : storage.capacity)
    }

    /// Moves the last packet to the end of `other` (a replay holds back a packet that is not due yet).
    public mutating func moveLast(to other: inout PacketBatch) {
        guard count > 0 else { return }
        if lastRecord < 0 { lastRecord = recordStart(before: used) }
        let last = lastRecord
        withPackets(from: last) { cursor in
            if let packet = cursor.next() {
                other.append(
                    timestamp: packet.timestamp, incoming: packet.incoming, bytes: packet.bytes,
                    framedLEMetaEvent: packet.isFramedLEMetaEvent)
            }
        }
        reserve(last)
        used = last
        count -= 1
        // Finding the new last record means walking the batch from its start (records link
        // forwards only): about 14 instructions a report at 3,000 reports/s (callgrind), for a
        // value the replay never reads.
        lastRecord = -1
    }

    /// Where the record that ends at `end` starts, walking from the first.
    private func recordStart(before end: Int) -> Int {
        withPackets(from: 0) { cursor in
            var start = 0
            while cursor.offset < end {
                start = cursor.offset
                _ = cursor.next()
            }
            return start
        }
    }

    /// The packets as values of their own (for a recording, a test), in order.
    public var packets: [CapturedPacket] {
        var out: [CapturedPacket] = []
        out.reserveCapacity(count)
        withPackets(from: 0) { cursor in
            while let packet = cursor.next() {
                out.append(
                    CapturedPacket(timestamp: packet.timestamp, bytes: Array(packet.bytes), incoming: packet.incoming))
            }
        }
        return out
    }

    /// Lends `body` a cursor over the packets from the record at `offset` (0: the first) on. The
    /// packets' bytes are valid only during the call; the cursor's `offset` afterwards is where to
    /// go on from. One call per batch, so a caller's loop over its packets is a plain loop.
    @inlinable
    public func withPackets<R>(from offset: Int, _ body: (inout Cursor) -> R) -> R {
        withExtendedLifetime(storage) {
            var cursor = Cursor(bytes, at: offset)
            return body(&cursor)
        }
    }

    /// Reads a batch's records in order.
    public struct Cursor {
        @usableFromInline let raw: UnsafeRawBufferPointer
        /// Where the next record starts (`raw.count` at the end).
        @usableFromInline var _offset: Int
        public var offset: Int { _offset }

        @inlinable
        init(_ raw: UnsafeRawBufferPointer, at offset: Int) {
            self.raw = raw
            _offset = offset
        }

        /// True once every packet was read.
        @inlinable
        public var isAtEnd: Bool { offset >= raw.count }

        /// The next packet, or nil at the end.
        @inlinable
        public mutating func next() -> PacketView? {
            guard offset < raw.count else { return nil }
            let length = Int(ByteReader.uint32(raw, at: offset + 8, .littleEndian))
            let start = offset + PacketBatch.headerSize
            let flags = raw[offset + 12]
            let packet = PacketView(
                timestamp: Timestamp(
                    microseconds: Int64(bitPattern: ByteReader.uint64(raw, at: offset, .littleEndian))),
                incoming: flags & PacketBatch.incomingFlag != 0,
                bytes: UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)]),
                isFramedLEMetaEvent: flags & PacketBatch.framedFlag != 0)
            _offset = start + length
            return packet
        }
    }
}

/// One packet of a `PacketBatch`, read in place: the same fields as a `CapturedPacket`, with its
/// bytes borrowed from the batch for the duration of a call.
public struct PacketView {
    public var timestamp: Timestamp
    public var incoming: Bool
    /// The HCI packet starting with its H4 packet indicator; valid only while the batch is borrowed.
    public var bytes: UnsafeRawBufferPointer
    /// The source framed it already: an H4 LE Meta event whose Parameter_Total_Length matches its
    /// bytes (`HCIPacketDecoder.controllerEvent` returned `.leMeta` for it), so its reports are read
    /// with `HCIPacketDecoder.forEachReport` and `indicator: .framedLEMetaEvent`. False for a packet nobody
    /// framed yet (a replay's), which the pipeline frames itself.
    public var isFramedLEMetaEvent: Bool

    @inlinable
    public init(
        timestamp: Timestamp, incoming: Bool, bytes: UnsafeRawBufferPointer, isFramedLEMetaEvent: Bool = false
    ) {
        self.timestamp = timestamp
        self.incoming = incoming
        self.bytes = bytes
        self.isFramedLEMetaEvent = isFramedLEMetaEvent
    }
}
