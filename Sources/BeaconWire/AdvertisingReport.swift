/// One advertising report from an HCI LE Meta event.
///
/// Legacy: LE Advertising Report, Core Spec Vol 4, Part E, §7.7.65.2 (subevent 0x02).
/// Directed: LE Directed Advertising Report, §7.7.65.11 (subevent 0x0B; ADV_DIRECT_IND, no data).
/// Extended: LE Extended Advertising Report, §7.7.65.13 (subevent 0x0D).
/// Multi-byte HCI fields are little-endian.
public struct AdvertisingReport: Sendable, Equatable {
    /// Raw values are the LE Meta subevent codes.
    public enum Kind: UInt8, Sendable {
        case legacy = 0x02
        case directed = 0x0B
        case extended = 0x0D
    }

    public var kind: Kind
    /// Legacy: Event_Type 0…4 (ADV_IND, ADV_DIRECT_IND, ADV_SCAN_IND, ADV_NONCONN_IND, SCAN_RSP).
    /// Extended: the 16-bit Event_Type bit field.
    public var eventType: UInt16
    public var addressType: UInt8
    public var address: BluetoothAddress
    /// dBm; 127 means "not available".
    public var rssi: Int8
    /// Extended only (legacy reports: 1 = LE 1M).
    public var primaryPHY: UInt8
    /// Extended only; 0 = no packets on the secondary channel.
    public var secondaryPHY: UInt8
    /// Extended only; 0xFF = no ADI field.
    public var sid: UInt8
    /// Extended only; dBm, 127 means "not available".
    public var txPower: Int8
    /// Extended only; 0 = no periodic advertising.
    public var periodicAdvertisingInterval: UInt16
    public var directAddressType: UInt8
    public var directAddress: BluetoothAddress
    /// The raw AD data (Data field).
    public var data: [UInt8]

    public init(
        kind: Kind, eventType: UInt16, addressType: UInt8, address: BluetoothAddress, rssi: Int8,
        primaryPHY: UInt8 = 1, secondaryPHY: UInt8 = 0, sid: UInt8 = 0xFF, txPower: Int8 = 127,
        periodicAdvertisingInterval: UInt16 = 0, directAddressType: UInt8 = 0,
        directAddress: BluetoothAddress = BluetoothAddress(rawValue: 0), data: [UInt8]
    ) {
        self.kind = kind
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.rssi = rssi
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.sid = sid
        self.txPower = txPower
        self.periodicAdvertisingInterval = periodicAdvertisingInterval
        self.directAddressType = directAddressType
        self.directAddress = directAddress
        self.data = data
    }

    /// Extended Event_Type bit 4: the report came from a legacy advertising PDU.
    public var isLegacyPDU: Bool { kind != .extended || eventType & 0x10 != 0 }
    /// Extended Event_Type bits 5–6: 0 complete, 1 incomplete (more to come), 2 truncated.
    public var dataStatus: UInt8 { kind != .extended ? 0 : UInt8((eventType >> 5) & 0x3) }
    /// True when the report is a scan response (legacy SCAN_RSP, or extended bit 3).
    public var isScanResponse: Bool { kind != .extended ? eventType == 4 : eventType & 0x08 != 0 }
}
