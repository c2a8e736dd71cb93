/// A stream of HCI packets laid out back to back in one buffer, as a socket read delivers them,
/// so the timed loop walks memory linearly and allocates nothing.
struct PacketStream {
    var name: String
    var bytes: [UInt8] = []
    /// Start offset of each packet in `bytes`, plus a final end offset.
    var offsets: [Int] = [0]

    init(name: String, packets: [[UInt8]]) {
        self.name = name
        for packet in packets { append(packet) }
    }

    mutating func append(_ packet: [UInt8]) {
        bytes.append(contentsOf: packet)
        offsets.append(bytes.count)
    }

    var count: Int { offsets.count - 1 }

    func packet(_ index: Int) -> ArraySlice<UInt8> { bytes[offsets[index]..<offsets[index + 1]] }

    /// Runs `decode` over every packet once and returns the tally.
    @inline(__always)
    func decodeAll(_ decode: (UnsafeRawBufferPointer, inout DecodeTally) -> Void) -> DecodeTally {
        var tally = DecodeTally()
        bytes.withUnsafeBytes { raw in
            offsets.withUnsafeBufferPointer { offs in
                for i in 0..<(offs.count - 1) {
                    decode(UnsafeRawBufferPointer(rebasing: raw[offs[i]..<offs[i + 1]]), &tally)
                }
            }
        }
        return tally
    }

    /// The stream in the peer's input format: per packet, a little-endian UInt16 length then the bytes.
    var lengthPrefixed: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 2 * count)
        for i in 0..<count {
            let p = packet(i)
            out.append(UInt8(p.count & 0xFF))
            out.append(UInt8(p.count >> 8))
            out.append(contentsOf: p)
        }
        return out
    }
}
