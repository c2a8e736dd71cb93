/// The fixed fields of one advertising report, without its AD data (Core Spec Vol 4, Part E,
/// §7.7.65.2, §7.7.65.11, §7.7.65.13): small and trivially copyable so the zero-allocation path
/// (`HCIPacketDecoder.forEachReport`) can hand it out per report; `AdvertisingReport` is a header
/// and a copy of the data.
public struct ReportHeader: Sendable, Equatable {
    public var kind: AdvertisingReport.Kind
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

    public init(
        kind: AdvertisingReport.Kind, eventType: UInt16, addressType: UInt8, address: BluetoothAddress, rssi: Int8,
        primaryPHY: UInt8 = 1, secondaryPHY: UInt8 = 0, sid: UInt8 = 0xFF, txPower: Int8 = 127,
        periodicAdvertisingInterval: UInt16 = 0, directAddressType: UInt8 = 0,
        directAddress: BluetoothAddress = BluetoothAddress(rawValue: 0)
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
    }

    /// Extended Event_Type bit 4: the report came from a legacy advertising PDU.
    public var isLegacyPDU: Bool { kind != .extended || eventType & 0x10 != 0 }
    /// Extended Event_Type bits 5–6: 0 complete, 1 incomplete (more to come), 2 truncated.
    public var dataStatus: UInt8 { kind != .extended ? 0 : UInt8((eventType >> 5) & 0x3) }
    /// True when the report is a scan response (legacy SCAN_RSP, or extended bit 3).
    public var isScanResponse: Bool { kind != .extended ? eventType == 4 : eventType & 0x08 != 0 }
}

extension AdvertisingReport {
    /// Builds a report from a header and its AD data (copied).
    public init(_ header: ReportHeader, data: UnsafeRawBufferPointer) { self.init(header, data: Array(data)) }
}
