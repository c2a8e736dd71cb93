/// The fixed fields of one advertising report, without its AD data: small and trivially
/// copyable so the zero-allocation path (`HCIPacketDecoder.forEachReport`) can hand it out
/// per report. Field meanings as in `AdvertisingReport` (Core Spec Vol 4, Part E, §7.7.65.2, §7.7.65.13).
public struct ReportHeader: Sendable, Equatable {
    public var kind: AdvertisingReport.Kind
    public var eventType: UInt16
    public var addressType: UInt8
    public var address: BluetoothAddress
    /// dBm; 127 = not available.
    public var rssi: Int8
    public var primaryPHY: UInt8
    public var secondaryPHY: UInt8
    public var sid: UInt8
    /// dBm; 127 = not available.
    public var txPower: Int8
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
}

extension AdvertisingReport {
    /// Builds a report from a header and its AD data (copied).
    public init(_ header: ReportHeader, data: UnsafeRawBufferPointer) {
        self.init(
            kind: header.kind, eventType: header.eventType, addressType: header.addressType,
            address: header.address, rssi: header.rssi, primaryPHY: header.primaryPHY,
            secondaryPHY: header.secondaryPHY, sid: header.sid, txPower: header.txPower,
            periodicAdvertisingInterval: header.periodicAdvertisingInterval,
            directAddressType: header.directAddressType, directAddress: header.directAddress,
            data: Array(data))
    }
}
