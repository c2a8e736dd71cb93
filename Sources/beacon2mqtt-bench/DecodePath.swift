import BeaconWire

/// The one place the benchmark calls the decoder: HCI event bytes → reports → iBeacon fields.
///
/// STAND-IN until BeaconWire's HCIPacketDecoder lands on main: a minimal legacy-report walk, so the
/// harness runs end to end. Swap the body for `HCIPacketDecoder.forEachReport(in:)` +
/// `BeaconDecoder.firstIdentifiedBeacon(inAD:)`.
enum DecodePath {
    static let isStandIn = true

    /// Decodes one HCI packet (with H4 indicator) and adds every report and iBeacon to `tally`.
    @inline(__always)
    static func decode(_ packet: UnsafeRawBufferPointer, into tally: inout DecodeTally) {
        guard packet.count >= 5, packet[0] == 0x04, packet[1] == 0x3E, packet[3] == 0x02 else { return }
        var offset = 5
        for _ in 0..<Int(packet[4]) {
            guard offset + 9 <= packet.count else { return }
            var address: UInt64 = 0
            for i in 0..<6 { address |= UInt64(packet[offset + 2 + i]) << UInt64(8 * i) }
            let length = Int(packet[offset + 8])
            let data = offset + 9
            guard data + length + 1 <= packet.count else { return }
            let rssi = Int8(bitPattern: packet[data + length])
            tally.reports += 1
            var ad = data
            while ad < data + length {
                let l = Int(packet[ad])
                if l == 0 || ad + 1 + l > data + length { break }
                if l >= 26, packet[ad + 1] == 0xFF, packet[ad + 2] == 0x4C, packet[ad + 3] == 0x00,
                    packet[ad + 4] == 0x02, packet[ad + 5] == 0x15
                {
                    var high: UInt64 = 0
                    var low: UInt64 = 0
                    for i in 0..<8 { high = high << 8 | UInt64(packet[ad + 6 + i]) }
                    for i in 8..<16 { low = low << 8 | UInt64(packet[ad + 6 + i]) }
                    let major = UInt16(packet[ad + 22]) << 8 | UInt16(packet[ad + 23])
                    let minor = UInt16(packet[ad + 24]) << 8 | UInt16(packet[ad + 25])
                    tally.add(
                        address: address, rssi: rssi, uuid: BeaconID128(high: high, low: low), major: major,
                        minor: minor, power: Int8(bitPattern: packet[ad + 26]))
                    break
                }
                ad += 1 + l
            }
            offset = data + length + 1
        }
    }

    /// Decodes a whole packet held in an array (start-up checks, not the timed path).
    static func decode(_ packet: [UInt8]) -> DecodeTally {
        var tally = DecodeTally()
        packet.withUnsafeBytes { decode($0, into: &tally) }
        return tally
    }
}
