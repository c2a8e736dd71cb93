import BeaconWire

/// The one place the benchmark calls the decoder: HCI event bytes → reports → iBeacon fields,
/// through BeaconWire's zero-allocation path (`HCIPacketDecoder.forEachReport` hands out each
/// report's header and borrowed AD bytes; `BeaconDecoder.firstIdentifiedBeacon` finds the frame).
enum DecodePath {
    static let isStandIn = false

    /// Decodes one HCI packet (with its H4 indicator, as the HCI socket delivers it) and adds every
    /// report and iBeacon to `tally`. Malformed packets count nothing (the workloads have none).
    @inline(__always)
    static func decode(_ packet: UnsafeRawBufferPointer, into tally: inout DecodeTally) {
        _ = try? HCIPacketDecoder.forEachReport(in: packet, indicator: .present) { header, ad in
            tally.reports += 1
            if case .iBeacon(let b)? = BeaconDecoder.firstIdentifiedBeacon(inAD: ad) {
                tally.add(
                    address: header.address.rawValue, rssi: header.rssi, uuid: b.uuid, major: b.major,
                    minor: b.minor, power: b.measuredPower)
            }
        }
    }

    /// Decodes a whole packet held in an array (start-up checks, not the timed path).
    static func decode(_ packet: [UInt8]) -> DecodeTally {
        var tally = DecodeTally()
        packet.withUnsafeBytes { decode($0, into: &tally) }
        return tally
    }
}
