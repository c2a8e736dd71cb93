/// `PacketBatch`'s buffer: one allocation, replaced by one twice the size when it is full, and
/// appended to with a capacity check and a copy (an array's `append(contentsOf:)` cost about 70
/// instructions a call, twice a packet). Its properties are constants: a class's variables pay a
/// dynamic exclusivity check on every access; the bytes in use are counted by the batch.
///
/// Invariant for `@unchecked Sendable`: the bytes are written only through a `PacketBatch` that
/// holds the only reference (`PacketBatch.reserve` copies them first otherwise), so a batch handed
/// to another thread shares a buffer nobody writes any more.
@usableFromInline
final class PacketBatchStorage: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutableRawPointer
    @usableFromInline let capacity: Int

    @usableFromInline
    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// A buffer of `capacity` bytes starting with the first `count` of this one.
    @usableFromInline
    func copy(_ count: Int, capacity: Int) -> PacketBatchStorage {
        let copy = PacketBatchStorage(capacity: capacity)
        copy.base.copyMemory(from: base, byteCount: count)
        return copy
    }
}
