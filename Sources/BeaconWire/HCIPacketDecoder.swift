/// Decodes HCI packets into advertising reports.
///
/// Only the LE Meta event (0x3E) subevents LE Advertising Report (0x02, Core Spec Vol 4, Part E,
/// §7.7.65.2) and LE Extended Advertising Report (0x0D, §7.7.65.13) yield reports; every other
/// packet is classified (`PacketClass`) and left to the caller to count.
///
/// Reports in one event are laid out one after another (each report's fields, then the next
/// report), as Linux delivers them and as the captures in Tests/Fixtures show — not the
/// "array of each field" layout some editions of the spec tables suggest. A report that runs
/// past the end of the event stops decoding: the reports before it are delivered, then
/// `DecodeError.truncated` names the report and its offset.
public enum HCIPacketDecoder {
    /// Fixed part of a legacy report: Event_Type, Address_Type, Address(6), Data_Length, then Data, RSSI.
    static let legacyFixedLength = 10
    /// Fixed part of an extended report, before Data (§7.7.65.13).
    static let extendedFixedLength = 24

    /// Zero-allocation path: calls `body` once per report with its header and its AD data
    /// (borrowed from `packet`, valid only during the call).
    ///
    /// With `.auto`, a buffer starting with 0x04 whose third byte equals the remaining length is an
    /// H4 event; failing that, one whose second byte equals the remaining length is a bare event;
    /// 0x01/0x02/0x03/0x05 are H4 command/ACL/SCO/ISO packets; anything else is read as a bare event.
    public static func forEachReport(
        in packet: UnsafeRawBufferPointer, indicator: H4Indicator = .auto,
        _ body: (ReportHeader, UnsafeRawBufferPointer) -> Void
    ) throws(DecodeError) -> PacketClass {
        guard let first = packet.first else { throw .empty }
        let start: Int
        switch indicator {
        case .absent:
            start = 0
        case .present:
            guard let type = HCIPacketType(rawValue: first) else { throw .unknownPacketIndicator(first, offset: 0) }
            if type != .event { return PacketClass(packetType: type) }
            start = 1
        case .auto:
            if first == HCIPacketType.event.rawValue {
                let looksH4 = packet.count >= 3 && Int(packet[2]) == packet.count - 3
                let looksBare = packet.count >= 2 && Int(packet[1]) == packet.count - 2
                start = looksH4 || !looksBare ? 1 : 0
            } else if let type = HCIPacketType(rawValue: first) {
                return PacketClass(packetType: type)
            } else {
                start = 0
            }
        }

        // Event header: Event_Code, Parameter_Total_Length (Vol 4, Part E, §5.4.4).
        let available = packet.count - start
        guard available >= 2 else {
            throw .truncated(what: .eventHeader, needed: 2, available: available, offset: start)
        }
        let code = packet[start]
        let declared = Int(packet[start + 1])
        let present = available - 2
        if declared < present {
            throw .badParameterLength(declared: declared, available: present, offset: start + 1)
        }
        var result = PacketClass(packetType: .event, eventCode: code)
        let parametersTruncated = declared > present
        guard code == PacketClass.leMetaEventCode else {
            if parametersTruncated { throw truncatedParameters(declared, present, start) }
            return result
        }

        var reader = ByteReader(
            UnsafeRawBufferPointer(rebasing: packet[(start + 2)...]), origin: start + 2, context: .leMetaSubevent)
        let subevent = try reader.readUInt8()
        result.leSubevent = subevent
        guard subevent == AdvertisingReport.Kind.legacy.rawValue || subevent == AdvertisingReport.Kind.extended.rawValue
        else {
            if parametersTruncated { throw truncatedParameters(declared, present, start) }
            return result
        }
        reader.context = .reportCount
        let count = Int(try reader.readUInt8())
        if subevent == AdvertisingReport.Kind.legacy.rawValue {
            for index in 0..<count {
                let (header, data) = try legacyReport(&reader, number: index + 1)
                body(header, data)
                result.reportCount += 1
            }
        } else {
            for index in 0..<count {
                let (header, data) = try extendedReport(&reader, number: index + 1)
                body(header, data)
                result.reportCount += 1
            }
        }
        if parametersTruncated { throw truncatedParameters(declared, present, start) }
        return result
    }

    /// Decodes `bytes` and appends its reports to `reports`; on error the reports before the
    /// damaged one have already been appended.
    @discardableResult
    public static func decodeReports(
        _ bytes: [UInt8], indicator: H4Indicator = .auto, into reports: inout [AdvertisingReport]
    ) throws(DecodeError) -> PacketClass {
        let outcome: Result<PacketClass, DecodeError> = bytes.withUnsafeBytes { raw in
            do throws(DecodeError) {
                return .success(
                    try forEachReport(in: raw, indicator: indicator) { header, data in
                        reports.append(AdvertisingReport(header, data: data))
                    })
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Convenience: the packet's class and all its reports. Use `decodeReports(_:indicator:into:)`
    /// to keep the reports before a truncated one.
    public static func decode(_ bytes: [UInt8], indicator: H4Indicator = .auto) throws(DecodeError) -> HCIPacketSummary {
        var reports: [AdvertisingReport] = []
        let packetClass = try decodeReports(bytes, indicator: indicator, into: &reports)
        return HCIPacketSummary(packetClass: packetClass, reports: reports)
    }

    // MARK: - Reports

    private static func truncatedParameters(_ declared: Int, _ present: Int, _ start: Int) -> DecodeError {
        .truncated(what: .eventParameters, needed: declared, available: present, offset: start + 2)
    }

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
    private static func legacyReport(_ reader: inout ByteReader, number: Int)
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

    /// §7.7.65.13, one report: Event_Type(2) Address_Type(1) Address(6) Primary_PHY(1) Secondary_PHY(1)
    /// Advertising_SID(1) TX_Power(1) RSSI(1) Periodic_Advertising_Interval(2) Direct_Address_Type(1)
    /// Direct_Address(6) Data_Length(1) Data.
    @inline(__always)
    private static func extendedReport(_ reader: inout ByteReader, number: Int)
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
