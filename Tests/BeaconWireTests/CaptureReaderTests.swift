import BeaconWire
import Testing
import Vocabulary

/// Container vectors built from the format descriptions: btsnoop (big-endian header "btsnoop\0",
/// version 1, datalink; records orig/incl length, flags, drops, µs since 0000-01-01), pcap
/// (magic a1b2c3d4 / a1b23c4d), pcapng (SHB 0x0A0D0D0A, IDB 1, EPB 6, SPB 3) and hcidump --raw text.
@Suite struct CaptureReaderTests {
    // 2023-11-14T22:13:20Z = 1_700_000_000 s after the Unix epoch.
    static let unixMicros: Int64 = 1_700_000_000_000_000
    /// The same instant in btsnoop's scale: plus 0x00DCDDB30F2F8000 µs.
    static let btsnoopMicros: Int64 = unixMicros + 0x00DC_DDB3_0F2F_8000

    static func be32(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    static func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func le16(_ v: UInt16) -> [UInt8] { be16(v).reversed() }
    static func be64(_ v: Int64) -> [UInt8] {
        be32(UInt32(truncatingIfNeeded: v >> 32)) + be32(UInt32(truncatingIfNeeded: v))
    }

    static func btsnoopHeader(datalink: UInt32) -> [UInt8] {
        Array("btsnoop".utf8) + [0x00] + be32(1) + be32(datalink)
    }

    static func btsnoopRecord(_ body: [UInt8], flags: UInt32, micros: Int64) -> [UInt8] {
        be32(UInt32(body.count)) + be32(UInt32(body.count)) + be32(flags) + be32(0) + be64(micros) + body
    }

    @Test func btsnoopH4RecordsKeepIndicatorDirectionAndTime() throws {
        let file =
            Self.btsnoopHeader(datalink: 1002)
            + Self.btsnoopRecord(HCIVectors.resetCommand, flags: 2, micros: Self.btsnoopMicros)  // sent command
            + Self.btsnoopRecord(HCIVectors.realIBeacon, flags: 3, micros: Self.btsnoopMicros + 1500)  // received event
        let (packets, error) = CaptureReader.readAll(file)
        #expect(error == nil)
        #expect(packets.map(\.bytes) == [HCIVectors.resetCommand, HCIVectors.realIBeacon])
        #expect(packets.map(\.incoming) == [false, true])
        #expect(packets[0].timestamp.rfc3339 == "2023-11-14T22:13:20.000Z")
        #expect(packets[1].timestamp.microseconds == Self.unixMicros + 1500)
    }

    @Test func btsnoopH1RecordsGetTheirIndicatorFromTheFlags() throws {
        let file =
            Self.btsnoopHeader(datalink: 1001)
            + Self.btsnoopRecord(Array(HCIVectors.realIBeacon.dropFirst()), flags: 3, micros: Self.btsnoopMicros)
            + Self.btsnoopRecord(Array(HCIVectors.resetCommand.dropFirst()), flags: 2, micros: Self.btsnoopMicros)
            + Self.btsnoopRecord(Array(HCIVectors.aclData.dropFirst()), flags: 0, micros: Self.btsnoopMicros)
        var reader = try CaptureReader(file)
        #expect(reader.format == .btsnoop(datalink: 1001))
        #expect(try reader.next()?.bytes == HCIVectors.realIBeacon)
        #expect(try reader.next()?.bytes == HCIVectors.resetCommand)
        let acl = try reader.next()
        #expect(acl?.bytes == HCIVectors.aclData)
        #expect(acl?.incoming == false)
        #expect(try reader.next() == nil)
    }

    @Test func btsnoopMonitorRecordsMapOpcodesAndSkipIndexEvents() throws {
        // btmon -w: flags low 16 bits = opcode (0 new index, 3 event), upper 16 = controller index.
        let file =
            Self.btsnoopHeader(datalink: 2001)
            + Self.btsnoopRecord([UInt8](repeating: 0, count: 16), flags: 0, micros: Self.btsnoopMicros)
            + Self.btsnoopRecord(Array(HCIVectors.realIBeacon.dropFirst()), flags: 3, micros: Self.btsnoopMicros)
        let (packets, error) = CaptureReader.readAll(file)
        #expect(error == nil)
        #expect(packets.map(\.bytes) == [HCIVectors.realIBeacon])
    }

    @Test func truncatedBtsnoopYieldsEarlierPacketsThenTheOffset() {
        let good = Self.btsnoopRecord(HCIVectors.realIBeacon, flags: 3, micros: Self.btsnoopMicros)
        let file = Self.btsnoopHeader(datalink: 1002) + good + Array(good.prefix(30))
        let (packets, error) = CaptureReader.readAll(file)
        #expect(packets.count == 1)
        let secondRecord = 16 + good.count
        #expect(error == .truncated(what: "btsnoop record 2", needed: good.count, available: 30, offset: secondRecord))
        #expect(
            error?.description
                == "truncated btsnoop record 2 at offset \(secondRecord): needs \(good.count) bytes, 30 available")
    }

    @Test func pcapLittleEndianWithDirectionHeader() throws {
        let header: [UInt8] =
            [0xD4, 0xC3, 0xB2, 0xA1] + Self.le16(2) + Self.le16(4) + Self.le32(0) + Self.le32(0)
            + Self.le32(65535) + Self.le32(201)
        let frame = Self.be32(1) + HCIVectors.realIBeacon  // direction 1 = received
        let record =
            Self.le32(1_700_000_000) + Self.le32(250_000) + Self.le32(UInt32(frame.count))
            + Self.le32(UInt32(frame.count)) + frame
        var reader = try CaptureReader(header + record)
        #expect(reader.format == .pcap(linkType: 201))
        let packet = try #require(try reader.next())
        #expect(packet.bytes == HCIVectors.realIBeacon)
        #expect(packet.incoming)
        #expect(packet.timestamp.microseconds == Self.unixMicros + 250_000)
        #expect(try reader.next() == nil)
    }

    @Test func pcapBigEndianNanosecondsWithPlainH4() throws {
        let header: [UInt8] =
            [0xA1, 0xB2, 0x3C, 0x4D] + Self.be16(2) + Self.be16(4) + Self.be32(0) + Self.be32(0)
            + Self.be32(65535) + Self.be32(187)
        let record =
            Self.be32(1_700_000_000) + Self.be32(7_000_999) + Self.be32(UInt32(HCIVectors.resetCommand.count))
            + Self.be32(UInt32(HCIVectors.resetCommand.count)) + HCIVectors.resetCommand
        let (packets, error) = CaptureReader.readAll(header + record)
        #expect(error == nil)
        #expect(packets.first?.bytes == HCIVectors.resetCommand)
        #expect(packets.first?.incoming == false)
        #expect(packets.first?.timestamp.microseconds == Self.unixMicros + 7000)
    }

    @Test func pcapWithAnotherLinkTypeIsRejected() {
        let header: [UInt8] =
            [0xD4, 0xC3, 0xB2, 0xA1] + Self.le16(2) + Self.le16(4) + Self.le32(0) + Self.le32(0)
            + Self.le32(65535) + Self.le32(1)  // Ethernet
        #expect(throws: CaptureError.unsupportedLinkType(1, offset: 20)) { try CaptureReader(header) }
    }

    /// pcapng big-endian section: SHB, IDB (linktype 201, if_tsresol 9 = ns), EPB, SPB.
    @Test func pcapngBigEndianWithNanosecondResolutionAndSimplePackets() throws {
        let shb =
            Self.be32(0x0A0D_0D0A) + Self.be32(28) + [0x1A, 0x2B, 0x3C, 0x4D] + Self.be16(1) + Self.be16(0)
            + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + Self.be32(28)
        // options: if_tsresol (9), length 1, value 9, 3 padding bytes; opt_endofopt
        let idbBody =
            Self.be16(201) + Self.be16(0) + Self.be32(0) + Self.be16(9) + Self.be16(1) + [9, 0, 0, 0]
            + Self.be16(0) + Self.be16(0)
        let idb = Self.be32(1) + Self.be32(UInt32(12 + idbBody.count)) + idbBody + Self.be32(UInt32(12 + idbBody.count))
        let frame = Self.be32(1) + HCIVectors.realIBeacon  // 49 bytes, padded to 52
        let nanos = UInt64(Self.unixMicros) * 1000 + 123_456
        let epbBody =
            Self.be32(0) + Self.be32(UInt32(nanos >> 32)) + Self.be32(UInt32(nanos & 0xFFFF_FFFF))
            + Self.be32(UInt32(frame.count)) + Self.be32(UInt32(frame.count)) + frame + [0, 0, 0]
        let epb = Self.be32(6) + Self.be32(UInt32(12 + epbBody.count)) + epbBody + Self.be32(UInt32(12 + epbBody.count))
        let spbFrame = Self.be32(0) + HCIVectors.resetCommand  // 8 bytes
        let spb = Self.be32(3) + Self.be32(24) + Self.be32(UInt32(spbFrame.count)) + spbFrame + Self.be32(24)
        let (packets, error) = CaptureReader.readAll(shb + idb + epb + spb)
        #expect(error == nil)
        #expect(packets.map(\.bytes) == [HCIVectors.realIBeacon, HCIVectors.resetCommand])
        #expect(packets.map(\.incoming) == [true, false])
        #expect(packets[0].timestamp.microseconds == Self.unixMicros + 123)
    }

    @Test func pcapngWithBrokenBlockLengthStopsThere() {
        let shb =
            Self.le32(0x0A0D_0D0A) + Self.le32(28) + [0x4D, 0x3C, 0x2B, 0x1A] + Self.le16(1) + Self.le16(0)
            + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + Self.le32(28)
        let bad = Self.le32(6) + Self.le32(13) + [UInt8](repeating: 0, count: 8)
        let (packets, error) = CaptureReader.readAll(shb + bad)
        #expect(packets.isEmpty)
        #expect(error == .malformed(what: "pcapng block length 13", offset: 32))
    }

    @Test func hcidumpTextPacketsSpanContinuationLinesAndGetSyntheticTimes() throws {
        let text = """
            HCI sniffer - Bluetooth packet analyzer ver 5.66
            device: hci0 snap_len: 1500 filter: 0xffffffff
            < 01 03 0C 00
            > 04 3E 19 02 02 03 00 66 55 44 33 22 11 03 02 01 06 C8 04 01
              F6 E5 D4 C3 B2 C1 00 7F
            > 04 0E 04 01 03 0C 00

            """
        var reader = try CaptureReader(Array(text.utf8))
        #expect(reader.format == .hcidumpText)
        var packets: [CapturedPacket] = []
        while let p = try reader.next() { packets.append(p) }
        #expect(
            packets.map(\.bytes) == [HCIVectors.resetCommand, HCIVectors.legacyTwoReports, HCIVectors.commandComplete])
        #expect(packets.map(\.incoming) == [false, true, true])
        #expect(packets.map(\.timestamp.microseconds) == [0, 100_000, 200_000])
    }

    @Test func hcidumpTextWithABadHexByteReportsItsOffset() {
        let text = "> 04 0E 04 01 03 0C 00\n> 04 3E ZZ\n"
        let (packets, error) = CaptureReader.readAll(Array(text.utf8))
        #expect(packets.count == 1)
        // Line 1 is 22 characters + newline; "ZZ" is at 23 + 8.
        #expect(error == .malformed(what: "hcidump hex byte", offset: 31))
    }

    @Test func unknownBytesAreNotACapture() {
        #expect(throws: CaptureError.unrecognizedFormat) { try CaptureReader([0x00, 0x01, 0x02, 0x03]) }
    }

    @Test func btsnoopWriterOutputReadsBack() throws {
        let packets = [
            CapturedPacket(
                timestamp: Timestamp(microseconds: Self.unixMicros), bytes: HCIVectors.resetCommand, incoming: false),
            CapturedPacket(timestamp: Timestamp(microseconds: Self.unixMicros + 42), bytes: HCIVectors.realIBeacon),
            CapturedPacket(timestamp: Timestamp(microseconds: Self.unixMicros + 99), bytes: HCIVectors.aclData),
        ]
        let file = BtsnoopWriter.fileHeader() + packets.flatMap(BtsnoopWriter.record)
        #expect(Array(file.prefix(16)) == Self.btsnoopHeader(datalink: 1002))
        let (read, error) = CaptureReader.readAll(file)
        #expect(error == nil)
        #expect(read == packets)
    }

    /// The csacca pcapng was converted from the btsnoop file with editcap: both must yield the same packets.
    @Test func realPcapngAndBtsnoopOfTheSameCaptureAgree() throws {
        let fromBtsnoop = try CaptureFixtures.packets("csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log")
        let fromPcapng = try CaptureFixtures.packets("csacca-horizon74_legacy-scanrsp-ibeacon.pcapng")
        #expect(fromBtsnoop.count > 800)
        #expect(fromBtsnoop == fromPcapng)
        let times = fromBtsnoop.map(\.timestamp)
        #expect(times == times.sorted())
        // Sanity: recorded between 2015 and 2030, i.e. the epoch offset is applied.
        #expect(times.first! > Timestamp(microseconds: 1_420_070_400_000_000))
        #expect(times.last! < Timestamp(microseconds: 1_893_456_000_000_000))
    }
}
