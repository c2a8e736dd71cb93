/// The one byte reader: bounds-checked sequential reads over borrowed bytes, and positional reads
/// (`load`, `uint16`, `uint32`, `uint64`) for callers that checked the length once up front. Every
/// multi-byte read names its byte order, because HCI is little-endian while beacon payloads
/// (iBeacon, Eddystone) and btsnoop are big-endian, and pcap/pcapng say theirs in the file.
///
/// Errors report `context` and the absolute offset (`origin` + position), so a caller decoding a
/// slice still points at the byte in the whole packet.
public struct ByteReader {
    /// Byte order of a multi-byte field.
    public enum ByteOrder: Sendable, Equatable {
        case littleEndian, bigEndian
    }

    public let bytes: UnsafeRawBufferPointer
    /// Position of the next read, relative to `bytes`.
    public private(set) var position: Int = 0
    /// Offset of `bytes[0]` in the outermost buffer, for error messages.
    public var origin: Int
    /// What the caller is reading; carried by `truncated` errors.
    public var context: DecodeError.Element

    public init(_ bytes: UnsafeRawBufferPointer, origin: Int = 0, context: DecodeError.Element = .eventParameters) {
        self.bytes = bytes
        self.origin = origin
        self.context = context
    }

    public var remaining: Int { bytes.count - position }
    public var isAtEnd: Bool { position >= bytes.count }
    /// Absolute offset of the next read.
    public var offset: Int { origin + position }

    /// Throws `truncated` unless `count` more bytes are available.
    @inline(__always)
    public func require(_ count: Int) throws(DecodeError) {
        guard count <= remaining else {
            throw .truncated(what: context, needed: count, available: remaining, offset: offset)
        }
    }

    @inline(__always)
    public mutating func skip(_ count: Int) throws(DecodeError) {
        try require(count)
        position += count
    }

    /// The next `count` bytes, borrowed (no copy).
    @inline(__always)
    public mutating func readBytes(_ count: Int) throws(DecodeError) -> UnsafeRawBufferPointer {
        try require(count)
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
    }

    @inline(__always)
    public mutating func readUInt8() throws(DecodeError) -> UInt8 {
        try require(1)
        defer { position += 1 }
        return bytes[position]
    }

    @inline(__always)
    public mutating func readInt8() throws(DecodeError) -> Int8 { Int8(bitPattern: try readUInt8()) }

    @inline(__always)
    public mutating func readUInt16LE() throws(DecodeError) -> UInt16 { try read(UInt16.self, .littleEndian) }
    @inline(__always)
    public mutating func readUInt16BE() throws(DecodeError) -> UInt16 { try read(UInt16.self, .bigEndian) }
    @inline(__always)
    public mutating func readInt16BE() throws(DecodeError) -> Int16 { try read(Int16.self, .bigEndian) }
    @inline(__always)
    public mutating func readUInt32LE() throws(DecodeError) -> UInt32 { try read(UInt32.self, .littleEndian) }
    @inline(__always)
    public mutating func readUInt32BE() throws(DecodeError) -> UInt32 { try read(UInt32.self, .bigEndian) }
    @inline(__always)
    public mutating func readUInt64LE() throws(DecodeError) -> UInt64 { try read(UInt64.self, .littleEndian) }
    @inline(__always)
    public mutating func readUInt64BE() throws(DecodeError) -> UInt64 { try read(UInt64.self, .bigEndian) }
    @inline(__always)
    public mutating func readInt64BE() throws(DecodeError) -> Int64 { try read(Int64.self, .bigEndian) }

    /// A field whose byte order is only known at run time (pcap files, pcapng sections).
    @inline(__always)
    public mutating func read<T: FixedWidthInteger>(_: T.Type, _ order: ByteOrder) throws(DecodeError) -> T {
        try require(MemoryLayout<T>.size)
        defer { position += MemoryLayout<T>.size }
        return Self.load(T.self, bytes, at: position, order)
    }

    /// A 48-bit Bluetooth address, little-endian on the HCI wire (Core Spec Vol 4, Part E, §5.2).
    @inline(__always)
    public mutating func readAddressLE() throws(DecodeError) -> BluetoothAddress {
        try require(6)
        let low = UInt64(Self.load(UInt32.self, bytes, at: position, .littleEndian))
        let high = UInt64(Self.load(UInt16.self, bytes, at: position + 4, .littleEndian))
        position += 6
        return BluetoothAddress(rawValue: high << 32 | low)
    }

}
