/// One AD structure (Core Spec Vol 3, Part C, §11): its AD type and data, copied out of a report.
/// See Core Spec Supplement Part A for the types (0x01 Flags, 0x16 Service Data – 16-bit UUID,
/// 0xFF Manufacturer Specific Data, …).
public struct ADStructure: Sendable, Equatable {
    public var type: UInt8
    public var data: [UInt8]

    public init(type: UInt8, data: [UInt8]) {
        self.type = type
        self.data = data
    }

    public static let flags: UInt8 = 0x01
    /// Complete List of 16-bit Service Class UUIDs.
    public static let completeServiceUUIDs16: UInt8 = 0x03
    public static let serviceData16: UInt8 = 0x16
    public static let manufacturerSpecificData: UInt8 = 0xFF

    /// All well-formed structures of `ad`, and the offset of a truncated final one (see `ADWalker`).
    public static func parse(_ ad: UnsafeRawBufferPointer) -> (structures: [ADStructure], truncatedAt: Int?) {
        var walker = ADWalker(ad)
        var out: [ADStructure] = []
        while let (type, data) = walker.next() {
            out.append(ADStructure(type: type, data: Array(data)))
        }
        return (out, walker.truncatedAt)
    }

    public static func parse(_ ad: [UInt8]) -> (structures: [ADStructure], truncatedAt: Int?) {
        ad.withUnsafeBytes { parse($0) }
    }
}
