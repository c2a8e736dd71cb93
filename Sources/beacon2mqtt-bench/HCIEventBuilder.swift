import BeaconWire

/// Builds the HCI event bytes a controller delivers, for generated workloads.
///
/// LE Meta event (0x3E) with one LE Advertising Report (subevent 0x02), Core Spec Vol 4, Part E,
/// §7.7.65.2, preceded by the H4 indicator 0x04. HCI fields are little-endian; the iBeacon
/// payload inside the AD data is big-endian.
enum HCIEventBuilder {
    /// The real iBeacon event from a peer's public tests (AirLocate UUID, major 100, minor 0,
    /// measured power −59, RSSI −77).
    static let referenceIBeaconHex =
        "043E2A02010001433EA2C96B6A1E02011A1AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000640000C5B3"
    /// A real iPhone advert (Apple type 0x0F "nearby action"): not an iBeacon, must be rejected.
    static let referenceIPhoneHex = "043E2202010001433EA2C96B6A1602011A020A0C0FFF4C000F06A033BD08C5001002440CC4"

    static var referenceIBeacon: [UInt8] { Hex.bytes(referenceIBeaconHex)! }
    static var referenceIPhone: [UInt8] { Hex.bytes(referenceIPhoneHex)! }

    /// The AirLocate proximity UUID of the reference event.
    static let airLocate = BeaconID128(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    /// An LE Advertising Report event carrying Flags plus an iBeacon manufacturer-data structure.
    /// `eventType` 3 is ADV_NONCONN_IND, what most beacons send.
    static func iBeacon(
        address: UInt64, uuid: BeaconID128, major: UInt16, minor: UInt16, measuredPower: Int8, rssi: Int8,
        addressType: UInt8 = 1, eventType: UInt8 = 3
    ) -> [UInt8] {
        var ad: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
        appendBigEndian(uuid.high, bytes: 8, to: &ad)
        appendBigEndian(uuid.low, bytes: 8, to: &ad)
        appendBigEndian(UInt64(major), bytes: 2, to: &ad)
        appendBigEndian(UInt64(minor), bytes: 2, to: &ad)
        ad.append(UInt8(bitPattern: measuredPower))
        return advertisingReport(address: address, addressType: addressType, eventType: eventType, data: ad, rssi: rssi)
    }

    /// An LE Advertising Report event with arbitrary AD data.
    static func advertisingReport(
        address: UInt64, addressType: UInt8, eventType: UInt8, data: [UInt8], rssi: Int8
    )
        -> [UInt8]
    {
        AdvertisingReportEvent.bytes(
            address: BluetoothAddress(rawValue: address), addressType: addressType, eventType: eventType, data: data,
            rssi: rssi)
    }

    private static func appendBigEndian(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for i in stride(from: bytes - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * i)))
        }
    }
}
