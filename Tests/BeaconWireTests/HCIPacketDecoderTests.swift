import BeaconWire
import Testing

@Suite struct HCIPacketDecoderTests {
    @Test func realIBeaconEventDecodesToOneLegacyReport() throws {
        let summary = try HCIPacketDecoder.decode(HCIVectors.realIBeacon)
        #expect(summary.packetType == .event)
        #expect(summary.eventCode == 0x3E)
        #expect(summary.leSubevent == 0x02)
        #expect(summary.reports.count == 1)
        let r = try #require(summary.reports.first)
        #expect(r.kind == .legacy)
        #expect(r.eventType == 0)
        #expect(r.addressType == 1)
        #expect(r.address.description == "6a:6b:c9:a2:3e:43")
        #expect(r.rssi == -77)
        #expect(r.txPower == 127)
        #expect(r.isLegacyPDU)
        #expect(r.dataStatus == 0)
        #expect(r.data.count == 30)
        #expect(r.data.prefix(3) == [0x02, 0x01, 0x1A])
    }

    @Test func decodesTheSameEventWithoutTheH4Byte() throws {
        let bare = Array(HCIVectors.realIBeacon.dropFirst())
        let auto = try HCIPacketDecoder.decode(bare)
        let explicit = try HCIPacketDecoder.decode(bare, indicator: .absent)
        let withH4 = try HCIPacketDecoder.decode(HCIVectors.realIBeacon, indicator: .present)
        #expect(auto.reports == withH4.reports)
        #expect(explicit.reports == withH4.reports)
        #expect(auto.reports.count == 1)
    }

    @Test func legacyEventWithTwoReportsDeliversBoth() throws {
        let reports = try HCIPacketDecoder.decode(HCIVectors.legacyTwoReports).reports
        #expect(reports.count == 2)
        #expect(reports[0].eventType == 3)
        #expect(reports[0].address.description == "11:22:33:44:55:66")
        #expect(reports[0].addressType == 0)
        #expect(reports[0].data == [0x02, 0x01, 0x06])
        #expect(reports[0].rssi == -56)
        #expect(reports[1].eventType == 4)
        #expect(reports[1].isScanResponse)
        #expect(reports[1].address.description == "c1:b2:c3:d4:e5:f6")
        #expect(reports[1].addressType == 1)
        #expect(reports[1].data.isEmpty)
        #expect(reports[1].rssi == 127)
    }

    @Test func legacyEventWithThreeReportsDeliversAllInOrder() throws {
        let reports = try HCIPacketDecoder.decode(HCIVectors.legacyThreeReports).reports
        #expect(reports.map(\.address.description) == ["11:22:33:44:55:66", "c1:b2:c3:d4:e5:f6", "06:05:04:03:02:01"])
        #expect(reports[2].data == [0x04, 0x09, 0x61, 0x62, 0x63])
        #expect(reports[2].rssi == -90)
    }

    @Test func extendedEventWithTwoReportsKeepsEveryField() throws {
        let summary = try HCIPacketDecoder.decode(HCIVectors.extendedTwoReports)
        #expect(summary.leSubevent == 0x0D)
        let reports = summary.reports
        #expect(reports.count == 2)
        let a = reports[0]
        #expect(a.kind == .extended)
        #expect(a.eventType == 0x13)
        #expect(a.isLegacyPDU)
        #expect(a.primaryPHY == 1 && a.secondaryPHY == 0 && a.sid == 0xFF)
        #expect(a.txPower == 127 && a.rssi == -56)
        #expect(a.data == [0x02, 0x01, 0x06])
        let b = reports[1]
        #expect(b.eventType == 0x21)
        #expect(!b.isLegacyPDU)
        #expect(b.dataStatus == 1)
        #expect(b.addressType == 1)
        #expect(b.address.description == "c1:b2:c3:d4:e5:f6")
        #expect(b.primaryPHY == 3 && b.secondaryPHY == 2 && b.sid == 5)
        #expect(b.txPower == -12 && b.rssi == -80)
        #expect(b.periodicAdvertisingInterval == 0x10)
        #expect(b.directAddressType == 1)
        #expect(b.directAddress.description == "0f:0e:0d:0c:0b:0a")
        #expect(b.data.isEmpty)
    }

    @Test func extendedEventWithThreeReportsCarriesTheIBeaconInTheThird() throws {
        let reports = try HCIPacketDecoder.decode(HCIVectors.extendedThreeReports).reports
        #expect(reports.count == 3)
        #expect(reports[2].isScanResponse)
        #expect(reports[2].rssi == 127)
        guard case .iBeacon(let b)? = BeaconDecoder.firstIdentifiedBeacon(inAD: reports[2].data) else {
            Issue.record("no iBeacon in report 3")
            return
        }
        #expect(b.uuid.uuidString == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
        #expect(b.major == 100 && b.minor == 0 && b.measuredPower == -59)
    }

    @Test func truncatedSecondReportDeliversTheFirstThenThrows() {
        var reports: [AdvertisingReport] = []
        #expect(throws: DecodeError.truncated(what: .extendedReport(2), needed: 24, available: 9, offset: 32)) {
            try HCIPacketDecoder.decodeReports(HCIVectors.extendedSecondReportCut, into: &reports)
        }
        #expect(reports.count == 1)
        #expect(reports.first?.address.description == "11:22:33:44:55:66")
    }

    @Test func truncationErrorSaysWhatAndWhere() {
        let error = DecodeError.truncated(what: .extendedReport(2), needed: 24, available: 9, offset: 32)
        #expect(error.description == "truncated extended report 2 at offset 32: needs 24 bytes, 9 available")
        #expect(error.offset == 32)
    }

    @Test func cutPacketDeliversCompleteReportsThenReportsTheCut() {
        // Drop the last byte (report 2's RSSI): report 1 survives, report 2 (10 bytes) has 9.
        let cut = Array(HCIVectors.legacyTwoReports.dropLast())
        var reports: [AdvertisingReport] = []
        #expect(throws: DecodeError.truncated(what: .legacyReport(2), needed: 10, available: 9, offset: 18)) {
            try HCIPacketDecoder.decodeReports(cut, indicator: .present, into: &reports)
        }
        #expect(reports.count == 1)
    }

    @Test func extraBytesAfterTheDeclaredParametersAreABadLength() {
        let padded = HCIVectors.realIBeacon + [0x00]
        #expect(throws: DecodeError.badParameterLength(declared: 42, available: 43, offset: 2)) {
            try HCIPacketDecoder.decode(padded, indicator: .present)
        }
    }

    /// §7.7.65.11: the scanner's watchdog and the report path agree on subevent 0x0B.
    @Test func directedReportDecodesWithBothAddressesAndNoData() throws {
        let packet: [UInt8] = [
            0x04, 0x3E, 0x12, 0x0B, 0x01,
            0x01, 0x01, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  // ADV_DIRECT_IND, random 11:22:33:44:55:66
            0x00, 0x0F, 0x0E, 0x0D, 0x0C, 0x0B, 0x0A,  // direct address public 0a:0b:0c:0d:0e:0f
            0xC4,  // RSSI -60
        ]
        let summary = try HCIPacketDecoder.decode(packet, indicator: .present)
        #expect(
            summary.packetClass == PacketClass(packetType: .event, eventCode: 0x3E, leSubevent: 0x0B, reportCount: 1))
        #expect(summary.packetClass.isAdvertisingReport)
        let r = try #require(summary.reports.first)
        #expect(r.kind == .directed)
        #expect(r.eventType == 1 && r.addressType == 1 && r.rssi == -60)
        #expect(r.address.description == "11:22:33:44:55:66")
        #expect(r.directAddressType == 0 && r.directAddress.description == "0a:0b:0c:0d:0e:0f")
        #expect(r.data.isEmpty && r.isLegacyPDU && !r.isScanResponse)
        #expect(try HCIPacketDecoder.controllerEvent(packet)?.isAdvertisingReport == true)
        var cut = Array(packet.dropLast())
        cut[2] -= 1
        #expect(throws: DecodeError.truncated(what: .directedReport(1), needed: 16, available: 15, offset: 5)) {
            try HCIPacketDecoder.decode(cut, indicator: .present)
        }
    }

    @Test func otherPacketsAreClassifiedNotErrors() throws {
        let complete = try HCIPacketDecoder.decode(HCIVectors.commandComplete)
        #expect(complete.packetClass == PacketClass(packetType: .event, eventCode: 0x0E))
        let update = try HCIPacketDecoder.decode(HCIVectors.leConnectionUpdate)
        #expect(update.packetClass == PacketClass(packetType: .event, eventCode: 0x3E, leSubevent: 0x03))
        #expect(update.reports.isEmpty)
        #expect(try HCIPacketDecoder.decode(HCIVectors.resetCommand).packetType == .command)
        #expect(try HCIPacketDecoder.decode(HCIVectors.aclData).packetType == .acl)
    }

    @Test func unknownIndicatorIsRejectedWhenTheIndicatorIsRequired() {
        #expect(throws: DecodeError.unknownPacketIndicator(0x07, offset: 0)) {
            try HCIPacketDecoder.decode([0x07, 0x3E, 0x00], indicator: .present)
        }
        #expect(throws: DecodeError.empty) { try HCIPacketDecoder.decode([]) }
        // With the indicator required, every other packet type is classified by its indicator
        // (the event's own is tested first, by one compare), and every other byte is refused.
        for byte in UInt8.min...UInt8.max where byte != HCIPacketType.event.rawValue {
            let packet: [UInt8] = [byte, 0x3E, 0x00]
            if let type = HCIPacketType(rawValue: byte) {
                #expect(
                    (try? HCIPacketDecoder.decode(packet, indicator: .present))?.packetClass
                        == PacketClass(packetType: type))
            } else {
                #expect(throws: DecodeError.unknownPacketIndicator(byte, offset: 0)) {
                    try HCIPacketDecoder.decode(packet, indicator: .present)
                }
            }
        }
    }

    @Test func zeroCopyPathReportsTheSameHeadersAndData() throws {
        let expected = try HCIPacketDecoder.decode(HCIVectors.extendedThreeReports).reports
        var seen: [AdvertisingReport] = []
        let packetClass = try HCIVectors.extendedThreeReports.withUnsafeBytes { (raw) throws -> PacketClass in
            try HCIPacketDecoder.forEachReport(in: raw) { header, data in
                seen.append(AdvertisingReport(header, data: data))
            }
        }
        #expect(packetClass.reportCount == 3)
        #expect(packetClass.isAdvertisingReport)
        #expect(seen == expected)
    }

    @Test func reportHeaderIsTriviallyCopyable() {
        // The fast path hands one out per report; no reference counting may be involved.
        #expect(_isPOD(ReportHeader.self))
    }

    /// pcap and pcapng give their byte order in the file; beacon frames are read at fixed offsets.
    @Test func byteReaderReadsARunTimeOrderAndAtAnOffset() throws {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]
        #expect(ByteReader.uint32(bytes, at: 0, .bigEndian) == 0x0102_0304)
        #expect(ByteReader.uint32(bytes, at: 4, .littleEndian) == 0x0807_0605)
        #expect(ByteReader.uint16(bytes, at: 6, .bigEndian) == 0x0708)
        #expect(ByteReader.uint64(bytes, at: 0, .littleEndian) == 0x0807_0605_0403_0201)
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Void in
            #expect(ByteReader.load(Int16.self, raw, at: 2, .bigEndian) == 0x0304)
            var reader = ByteReader(raw)
            #expect(try reader.read(UInt32.self, .littleEndian) == 0x0403_0201)
            #expect(try reader.read(UInt32.self, .bigEndian) == 0x0506_0708)
            #expect(throws: DecodeError.truncated(what: .eventParameters, needed: 2, available: 0, offset: 8)) {
                try reader.read(UInt16.self, .bigEndian)
            }
        }
    }

    @Test func byteReaderNamesTheByteOrder() throws {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Void in
            var le = ByteReader(raw)
            #expect(try le.readUInt16LE() == 0x0201)
            #expect(try le.readUInt16BE() == 0x0304)
            #expect(try le.readUInt32LE() == 0x0807_0605)
            #expect(throws: DecodeError.truncated(what: .eventParameters, needed: 1, available: 0, offset: 8)) {
                try le.readUInt8()
            }
            var be = ByteReader(raw, origin: 10, context: .field("test"))
            #expect(try be.readUInt64BE() == 0x0102_0304_0506_0708)
            var short = ByteReader(UnsafeRawBufferPointer(rebasing: raw[0..<5]), origin: 10)
            #expect(throws: DecodeError.truncated(what: .eventParameters, needed: 6, available: 5, offset: 10)) {
                try short.readAddressLE()
            }
        }
    }
}
