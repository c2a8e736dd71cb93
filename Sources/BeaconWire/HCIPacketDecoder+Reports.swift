/// One advertising report each, read field by field (Core Spec Vol 4, Part E, §7.7.65).
extension HCIPacketDecoder {
    /// Fixed part of a legacy report: Event_Type, Address_Type, Address(6), Data_Length, then Data, RSSI.
    static let legacyFixedLength = 10
    /// A directed report has no data: Event_Type, Address_Type, Address(6), Direct_Address_Type,
    /// Direct_Address(6), RSSI (§7.7.65.11).
    static let directedLength = 16
    /// Fixed part of an extended report, before Data (§7.7.65.13).
    static let extendedFixedLength = 24

    /// Reads Data_Length and Data. A report that does not fit is reported as a whole: its number,
    /// its start offset and its full length (fixed part + data), so the message points at the report.
    @inline(__always)
    private static func reportData(
        _ reader: inout ByteReader, reportStart: Int, fixedLength: Int, trailing: Int
    ) throws(DecodeError) -> UnsafeRawBufferPointer {
        let dataLength = Int(try reader.readUInt8())
        guard reader.remaining >= dataLength + trailing else {
            throw .truncated(
                what: reader.context, needed: fixedLength + dataLength,
                available: reader.bytes.count - reportStart, offset: reader.origin + reportStart)
        }
        return try reader.readBytes(dataLength)
    }

    /// §7.7.65.2, one report: Event_Type(1) Address_Type(1) Address(6) Data_Length(1) Data RSSI(1).
    @inline(__always)
    static func legacyReport(
        _ reader: inout ByteReader, number: Int
    )
        throws(DecodeError) -> (ReportHeader, UnsafeRawBufferPointer)
    {
        reader.context = .legacyReport(number)
        try reader.require(legacyFixedLength)
        let reportStart = reader.position
        let eventType = try reader.readUInt8()
        let addressType = try reader.readUInt8()
        let address = try reader.readAddressLE()
        let data = try reportData(&reader, reportStart: reportStart, fixedLength: legacyFixedLength, trailing: 1)
        let rssi = try reader.readInt8()
        let header = ReportHeader(
            kind: .legacy, eventType: UInt16(eventType), addressType: addressType, address: address, rssi: rssi)
        return (header, data)
    }

    /// §7.7.65.11, one report: Event_Type(1) Address_Type(1) Address(6) Direct_Address_Type(1)
    /// Direct_Address(6) RSSI(1). It carries no AD data.
    @inline(__always)
    static func directedReport(_ reader: inout ByteReader, number: Int) throws(DecodeError) -> ReportHeader {
        reader.context = .directedReport(number)
        try reader.require(directedLength)
        let eventType = try reader.readUInt8()
        let addressType = try reader.readUInt8()
        let address = try reader.readAddressLE()
        let directAddressType = try reader.readUInt8()
        let directAddress = try reader.readAddressLE()
        let rssi = try reader.readInt8()
        return ReportHeader(
            kind: .directed, eventType: UInt16(eventType), addressType: addressType, address: address, rssi: rssi,
            directAddressType: directAddressType, directAddress: directAddress)
    }

    /// §7.7.65.13, one report: Event_Type(2) Address_Type(1) Address(6) Primary_PHY(1) Secondary_PHY(1)
    /// Advertising_SID(1) TX_Power(1) RSSI(1) Periodic_Advertising_Interval(2) Direct_Address_Type(1)
    /// Direct_Address(6) Data_Length(1) Data.
    @inline(__always)
    static func extendedReport(
        _ reader: inout ByteReader, number: Int
    )
        throws(DecodeError) -> (ReportHeader, UnsafeRawBufferPointer)
    {
        reader.context = .extendedReport(number)
        try reader.require(extendedFixedLength)
        let reportStart = reader.position
        let eventType = try reader.readUInt16LE()
        let addressType = try reader.readUInt8()
        let address = try reader.readAddressLE()
        let primaryPHY = try reader.readUInt8()
        let secondaryPHY = try reader.readUInt8()
        let sid = try reader.readUInt8()
        let txPower = try reader.readInt8()
        let rssi = try reader.readInt8()
        let interval = try reader.readUInt16LE()
        let directAddressType = try reader.readUInt8()
        let directAddress = try reader.readAddressLE()
        let data = try reportData(&reader, reportStart: reportStart, fixedLength: extendedFixedLength, trailing: 0)
        let header = ReportHeader(
            kind: .extended, eventType: eventType, addressType: addressType, address: address, rssi: rssi,
            primaryPHY: primaryPHY, secondaryPHY: secondaryPHY, sid: sid, txPower: txPower,
            periodicAdvertisingInterval: interval, directAddressType: directAddressType,
            directAddress: directAddress)
        return (header, data)
    }
}
