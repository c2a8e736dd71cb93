/// Walks the AD structures of an advertising report's data without allocating.
///
/// Core Spec Vol 3, Part C, §11: each structure is Length(1) then Length bytes of AD type and
/// AD data. A zero Length ends the significant part (the rest is padding). A structure whose
/// Length runs past the end is dropped, the walk stops and `truncatedAt` holds the offset of its
/// Length byte; data that is not AD-formatted at all ends the same way, never as an error.
public struct ADWalker: IteratorProtocol {
    public typealias Element = (type: UInt8, data: UnsafeRawBufferPointer)

    public let bytes: UnsafeRawBufferPointer
    public private(set) var position: Int = 0
    /// Offset of the Length byte of a structure that ran past the end, once the walk reached it.
    public private(set) var truncatedAt: Int?

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    public mutating func next() -> Element? {
        guard position < bytes.count else { return nil }
        let length = Int(bytes[position])
        guard length != 0 else {
            position = bytes.count
            return nil
        }
        guard length < bytes.count - position else {
            truncatedAt = position
            position = bytes.count
            return nil
        }
        let type = bytes[position + 1]
        let data = UnsafeRawBufferPointer(rebasing: bytes[(position + 2)..<(position + 1 + length)])
        position += 1 + length
        return (type, data)
    }
}
