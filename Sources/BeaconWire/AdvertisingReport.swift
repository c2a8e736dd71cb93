/// One advertising report from an HCI LE Meta event.
///
/// Legacy: LE Advertising Report, Core Spec Vol 4, Part E, §7.7.65.2 (subevent 0x02).
/// Directed: LE Directed Advertising Report, §7.7.65.11 (subevent 0x0B; ADV_DIRECT_IND, no data).
/// Extended: LE Extended Advertising Report, §7.7.65.13 (subevent 0x0D).
/// Multi-byte HCI fields are little-endian.
///
/// A report is its header (`ReportHeader`: who sent it, how, how loud; read as `report.address`,
/// `report.rssi`, …) and a copy of its AD data. The decoder's hot path reads the header and the data
/// in place instead; this is the copy the commands and tests keep.
@dynamicMemberLookup
public struct AdvertisingReport: Sendable, Equatable {
    /// Raw values are the LE Meta subevent codes.
    public enum Kind: UInt8, Sendable {
        case legacy = 0x02
        case directed = 0x0B
        case extended = 0x0D
    }

    public var header: ReportHeader
    /// The raw AD data (Data field).
    public var data: [UInt8]

    public init(_ header: ReportHeader, data: [UInt8]) {
        self.header = header
        self.data = data
    }

    public init(
        kind: Kind, eventType: UInt16, addressType: UInt8, address: BluetoothAddress, rssi: Int8,
        primaryPHY: UInt8 = 1, secondaryPHY: UInt8 = 0, sid: UInt8 = 0xFF, txPower: Int8 = 127,
        periodicAdvertisingInterval: UInt16 = 0, directAddressType: UInt8 = 0,
        directAddress: BluetoothAddress = BluetoothAddress(rawValue: 0), data: [UInt8]
    ) {
        self.init(
            ReportHeader(
                kind: kind, eventType: eventType, addressType: addressType, address: address, rssi: rssi,
                primaryPHY: primaryPHY, secondaryPHY: secondaryPHY, sid: sid, txPower: txPower,
                periodicAdvertisingInterval: periodicAdvertisingInterval, directAddressType: directAddressType,
                directAddress: directAddress),
            data: data)
    }

    /// The header's fields, as the report's own.
    @inlinable
    public subscript<T>(dynamicMember field: WritableKeyPath<ReportHeader, T>) -> T {
        get { header[keyPath: field] }
        set { header[keyPath: field] = newValue }
    }

    /// The header's derived fields.
    @inlinable
    public subscript<T>(dynamicMember field: KeyPath<ReportHeader, T>) -> T { header[keyPath: field] }
}
