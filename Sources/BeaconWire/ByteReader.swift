/// Bounds-checked sequential reads over borrowed bytes. Every multi-byte read names its byte order,
/// because HCI is little-endian while beacon payloads (iBeacon, Eddystone) and btsnoop are big-endian.
///
/// Errors report `context` and the absolute offset (`origin` + position), so a caller decoding a
/// slice still points at the byte in the whole packet.
public struct ByteReader {
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
    public mutating func readUInt16LE() throws(DecodeError) -> UInt16 { UInt16(littleEndian: try load(UInt16.self)) }
    @inline(__always)
    public mutating func readUInt16BE() throws(DecodeError) -> UInt16 { UInt16(bigEndian: try load(UInt16.self)) }
    @inline(__always)
    public mutating func readInt16BE() throws(DecodeError) -> Int16 { Int16(bigEndian: try load(Int16.self)) }
    @inline(__always)
    public mutating func readUInt32LE() throws(DecodeError) -> UInt32 { UInt32(littleEndian: try load(UInt32.self)) }
    @inline(__always)
    public mutating func readUInt32BE() throws(DecodeError) -> UInt32 { UInt32(bigEndian: try load(UInt32.self)) }
    @inline(__always)
    public mutating func readUInt64LE() throws(DecodeError) -> UInt64 { UInt64(littleEndian: try load(UInt64.self)) }
    @inline(__always)
    public mutating func readUInt64BE() throws(DecodeError) -> UInt64 { UInt64(bigEndian: try load(UInt64.self)) }
    @inline(__always)
    public mutating func readInt64BE() throws(DecodeError) -> Int64 { Int64(bigEndian: try load(Int64.self)) }

    /// A 48-bit Bluetooth address, little-endian on the HCI wire (Core Spec Vol 4, Part E, §5.2).
    @inline(__always)
    public mutating func readAddressLE() throws(DecodeError) -> BluetoothAddress {
        try require(6)
        let low = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
        let high = UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 4, as: UInt16.self)))
        position += 6
        return BluetoothAddress(rawValue: high << 32 | low)
    }


    @inline(__always)
    private mutating func load<T: FixedWidthInteger>(_: T.Type) throws(DecodeError) -> T {
        try require(MemoryLayout<T>.size)
        defer { position += MemoryLayout<T>.size }
        return bytes.loadUnaligned(fromByteOffset: position, as: T.self)
    }
}
