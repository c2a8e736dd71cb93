/// Positional reads: a field at a fixed offset, after the caller checked the length once (a beacon
/// frame, a capture record). Over raw bytes the check is the caller's (debug builds assert it), as
/// for `loadUnaligned`, so the beacon hot path pays nothing twice; over an array out of bounds
/// traps, as an index would.
extension ByteReader {
    @inline(__always)
    public static func load<T: FixedWidthInteger>(
        _: T.Type, _ bytes: UnsafeRawBufferPointer, at offset: Int, _ order: ByteOrder
    ) -> T {
        assert(offset >= 0 && offset <= bytes.count - MemoryLayout<T>.size, "read past the end")
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        return order == .bigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
    }

    @inline(__always)
    public static func uint16(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ order: ByteOrder) -> UInt16 {
        load(UInt16.self, bytes, at: offset, order)
    }

    @inline(__always)
    public static func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ order: ByteOrder) -> UInt32 {
        load(UInt32.self, bytes, at: offset, order)
    }

    @inline(__always)
    public static func uint64(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ order: ByteOrder) -> UInt64 {
        load(UInt64.self, bytes, at: offset, order)
    }

    /// The same over an array (capture buffers).
    @inline(__always)
    public static func load<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int, _ order: ByteOrder) -> T
    {
        precondition(offset >= 0 && offset <= bytes.count - MemoryLayout<T>.size, "read past the end")
        return bytes.withUnsafeBytes { load(T.self, $0, at: offset, order) }
    }

    @inline(__always)
    public static func uint16(_ bytes: [UInt8], at offset: Int, _ order: ByteOrder) -> UInt16 {
        load(UInt16.self, bytes, at: offset, order)
    }

    @inline(__always)
    public static func uint32(_ bytes: [UInt8], at offset: Int, _ order: ByteOrder) -> UInt32 {
        load(UInt32.self, bytes, at: offset, order)
    }

    @inline(__always)
    public static func uint64(_ bytes: [UInt8], at offset: Int, _ order: ByteOrder) -> UInt64 {
        load(UInt64.self, bytes, at: offset, order)
    }
}
