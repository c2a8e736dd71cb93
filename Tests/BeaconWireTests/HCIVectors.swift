/// Golden HCI packets, annotated byte by byte from Core Spec Vol 4, Part E, §7.7.65.2 (legacy) and
/// §7.7.65.13 (extended). Reports in one event follow one another (the layout Linux delivers).
enum HCIVectors {
    /// Real iBeacon advert (AirLocate UUID e2c56db5-dffb-48d2-b060-d0f5a71096e0, major 100, minor 0,
    /// measured power −59, RSSI −77), as a Linux HCI socket delivers it.
    static let realIBeacon = hex(
        "043E2A02010001433EA2C96B6A1E02011A1AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000640000C5B3")
    // 04 event | 3E LE Meta | 2A = 42 parameter bytes | 02 LE Advertising Report | 01 report
    // 00 ADV_IND | 01 random | 43 3E A2 C9 6B 6A = 6a:6b:c9:a2:3e:43 | 1E = 30 data bytes
    // 02 01 1A flags | 1A FF 4C 00 02 15 <uuid 16> 00 64 (major 100) 00 00 (minor 0) C5 (−59) | B3 RSSI −77

    /// Real iPhone advert: Apple manufacturer data of types 0x10 (Nearby Info) and 0x0F, not an iBeacon.
    static let realIPhone = hex("043E2202010001433EA2C96B6A1602011A020A0C0FFF4C000F06A033BD08C5001002440CC4")
    // 04 3E 22 (34) 02 01 | 00 ADV_IND 01 random, same address | 16 = 22 data bytes:
    // 02 01 1A flags | 02 0A 0C tx power level 12 | 0F FF 4C 00 0F 06 … 10 02 44 0C | C4 RSSI −60

    /// Two legacy reports in one event.
    static let legacyTwoReports: [UInt8] = [
        0x04,  // H4 event
        0x3E, 0x19,  // LE Meta, 25 parameter bytes = 2 + 13 + 10
        0x02, 0x02,  // LE Advertising Report, 2 reports
        // report 1 (13 bytes)
        0x03,  // ADV_NONCONN_IND
        0x00,  // public
        0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  // 11:22:33:44:55:66
        0x03, 0x02, 0x01, 0x06,  // 3 data bytes: Flags 0x06
        0xC8,  // RSSI −56
        // report 2 (10 bytes)
        0x04,  // SCAN_RSP
        0x01,  // random
        0xF6, 0xE5, 0xD4, 0xC3, 0xB2, 0xC1,  // c1:b2:c3:d4:e5:f6
        0x00,  // no data
        0x7F,  // RSSI 127 = not available
    ]

    /// Three legacy reports: the two above plus one with a Complete Local Name.
    static let legacyThreeReports: [UInt8] = [
        0x04, 0x3E, 0x28,  // 40 parameter bytes = 2 + 13 + 10 + 15
        0x02, 0x03,  // 3 reports
        0x03, 0x00, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x03, 0x02, 0x01, 0x06, 0xC8,
        0x04, 0x01, 0xF6, 0xE5, 0xD4, 0xC3, 0xB2, 0xC1, 0x00, 0x7F,
        // report 3 (15 bytes)
        0x00,  // ADV_IND
        0x00,  // public
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06,  // 06:05:04:03:02:01
        0x05, 0x04, 0x09, 0x61, 0x62, 0x63,  // 5 data bytes: Complete Local Name "abc"
        0xA6,  // RSSI −90
    ]

    static let extendedReport1: [UInt8] = [  // 27 bytes
        0x13, 0x00,  // Event_Type 0x0013: connectable, scannable, legacy (= ADV_IND), complete
        0x00,  // public
        0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  // 11:22:33:44:55:66
        0x01,  // primary PHY LE 1M
        0x00,  // no secondary PHY
        0xFF,  // no ADI
        0x7F,  // TX power not available
        0xC8,  // RSSI −56
        0x00, 0x00,  // no periodic advertising
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // direct address type + address
        0x03, 0x02, 0x01, 0x06,  // 3 data bytes: Flags 0x06
    ]

    static let extendedReport2: [UInt8] = [  // 24 bytes
        0x21, 0x00,  // Event_Type 0x0021: connectable, data status 1 (incomplete, more to come)
        0x01,  // random
        0xF6, 0xE5, 0xD4, 0xC3, 0xB2, 0xC1,  // c1:b2:c3:d4:e5:f6
        0x03,  // primary PHY LE Coded
        0x02,  // secondary PHY LE 2M
        0x05,  // SID 5
        0xF4,  // TX power −12
        0xB0,  // RSSI −80
        0x10, 0x00,  // periodic interval 0x0010
        0x01, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F,  // direct address type 1, 0f:0e:0d:0c:0b:0a
        0x00,  // no data
    ]

    static let extendedReport3: [UInt8] = [  // 54 bytes
        0x1B, 0x00,  // Event_Type 0x001B: scan response to ADV_IND (legacy)
        0x00,  // public
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06,  // 06:05:04:03:02:01
        0x01, 0x00, 0xFF, 0x7F, 0x7F,  // 1M, none, no ADI, TX n/a, RSSI n/a
        0x00, 0x00,  // no periodic advertising
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x1E,  // 30 data bytes
        0x02, 0x01, 0x1A,  // Flags
        0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15,  // Apple iBeacon header
        0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0,
        0x00, 0x64, 0x00, 0x00, 0xC5,  // major 100, minor 0, −59
    ]

    /// Two extended reports; 53 parameter bytes = 2 + 27 + 24.
    static let extendedTwoReports: [UInt8] = [0x04, 0x3E, 0x35, 0x0D, 0x02] + extendedReport1 + extendedReport2
    /// Three extended reports; 107 parameter bytes = 2 + 27 + 24 + 54.
    static let extendedThreeReports: [UInt8] =
        [0x04, 0x3E, 0x6B, 0x0D, 0x03] + extendedReport1 + extendedReport2 + extendedReport3

    /// Consistent lengths, but the event claims 2 reports and only 9 bytes of the second are there:
    /// 38 parameter bytes = 2 + 27 + 9. Report 2 starts at offset 1 + 2 + 2 + 27 = 32.
    static let extendedSecondReportCut: [UInt8] =
        [0x04, 0x3E, 0x26, 0x0D, 0x02] + extendedReport1 + Array(extendedReport2.prefix(9))

    /// Command Complete for HCI_Reset (Vol 4, Part E, §7.7.14): not an advertising report.
    static let commandComplete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
    /// LE Connection Update Complete subevent (0x03): an LE Meta event without reports.
    static let leConnectionUpdate: [UInt8] = [
        0x04, 0x3E, 0x0A, 0x03, 0x00, 0x40, 0x00, 0x18, 0x00, 0x00, 0x00, 0xC8, 0x00,
    ]
    /// HCI_Reset command and an ACL fragment.
    static let resetCommand: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
    static let aclData: [UInt8] = [0x02, 0x40, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x0A]

    static let all: [[UInt8]] = [
        realIBeacon, realIPhone, legacyTwoReports, legacyThreeReports, extendedTwoReports, extendedThreeReports,
        extendedSecondReportCut, commandComplete, leConnectionUpdate, resetCommand, aclData,
    ]

    static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            out.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return out
    }
}
