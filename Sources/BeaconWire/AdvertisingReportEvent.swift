/// Encodes the H4 packet a controller delivers for one legacy advertising report: indicator 0x04,
/// LE Meta event (0x3E), LE Advertising Report subevent (0x02) with one report (Core Spec Vol 4,
/// Part E, §7.7.65.2). The inverse of what `HCIPacketDecoder` reads, for generated workloads,
/// synthetic captures and tests.
///
/// HCI fields are little-endian: the address goes least significant byte first.
public enum AdvertisingReportEvent {
    /// `eventType` 3 is ADV_NONCONN_IND, 0 ADV_IND; `addressType` 0 public, 1 random.
    public static func bytes(
        address: BluetoothAddress, addressType: UInt8, eventType: UInt8 = 3, data: [UInt8], rssi: Int8
    ) -> [UInt8] {
        var packet: [UInt8] = [0x04, 0x3E, 0, 0x02, 0x01, eventType, addressType]
        packet.reserveCapacity(14 + data.count)
        for shift in stride(from: 0, to: 48, by: 8) {
            packet.append(UInt8(truncatingIfNeeded: address.rawValue >> UInt64(shift)))
        }
        packet.append(UInt8(data.count))
        packet.append(contentsOf: data)
        packet.append(UInt8(bitPattern: rssi))
        packet[2] = UInt8(packet.count - 3)  // Parameter_Total_Length: everything after the 3-byte header.
        return packet
    }
}
