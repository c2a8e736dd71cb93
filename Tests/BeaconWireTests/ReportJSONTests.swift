import BeaconWire
import Foundation
import Testing
import Vocabulary

@Suite struct ReportJSONTests {
    @Test func realIBeaconReportLine() throws {
        let report = try #require(try HCIPacketDecoder.decode(HCIVectors.realIBeacon).reports.first)
        // Expected text written from the annotated vector (HCIVectors.realIBeacon), field by field.
        let expected =
            #"{"kind":"legacy","event_type":0,"event_type_name":"ADV_IND","legacy_pdu":true,"data_status":0,"#
            + #""primary_phy":1,"secondary_phy":0,"sid":255,"tx_power":null,"address_type":1,"#
            + #""address":"6a:6b:c9:a2:3e:43","rssi":-77,"#
            + #""data":"02011a1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000640000c5","#
            + #""ad":[{"type":1,"data":"1a"},{"type":255,"data":"4c000215e2c56db5dffb48d2b060d0f5a71096e000640000c5"}],"#
            + #""beacons":[{"type":"ibeacon","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":100,"minor":0,"#
            + #""measured_power":-59}]}"#
        #expect(ReportJSON.line(for: report) == expected)
    }

    @Test func extendedReportListsFlagsAndOptionalFields() throws {
        let reports = try HCIPacketDecoder.decode(HCIVectors.extendedTwoReports).reports
        let expected =
            #"{"timestamp":"2023-11-14T22:13:20.000Z","kind":"extended","event_type":33,"#
            + #""event_type_name":["connectable"],"legacy_pdu":false,"data_status":1,"primary_phy":3,"#
            + #""secondary_phy":2,"sid":5,"tx_power":-12,"address_type":1,"address":"c1:b2:c3:d4:e5:f6","#
            + #""rssi":-80,"data":"","ad":[],"beacons":[]}"#
        #expect(
            ReportJSON.line(for: reports[1], timestamp: Timestamp(microseconds: 1_700_000_000_000_000)) == expected)
        let first = try Self.object(ReportJSON.line(for: reports[0]))
        #expect(first["event_type_name"] as? [String] == ["connectable", "scannable", "legacy"])
        #expect(first["tx_power"] is NSNull)
    }

    @Test func truncatedADIsLocated() throws {
        let report = AdvertisingReport(
            kind: .legacy, eventType: 3, addressType: 0, address: BluetoothAddress(rawValue: 1), rssi: -70,
            data: [0x02, 0x01, 0x06, 0x08, 0xFF, 0x4C])
        let object = try Self.object(ReportJSON.line(for: report))
        #expect(object["ad_truncated_at"] as? Int == 3)
        #expect((object["ad"] as? [Any])?.count == 1)
    }

    @Test func eddystoneAndAltBeaconObjects() throws {
        func beacons(_ ad: [UInt8]) throws -> [[String: Any]] {
            let report = AdvertisingReport(
                kind: .legacy, eventType: 3, addressType: 0, address: BluetoothAddress(rawValue: 1), rssi: -70, data: ad
            )
            return try Self.object(ReportJSON.line(for: report))["beacons"] as? [[String: Any]] ?? []
        }
        let tlm = try #require(try beacons(BeaconVectors.eddystoneTLM).first)
        #expect(tlm["type"] as? String == "eddystone_tlm")
        #expect(tlm["battery_mv"] as? Int == 3000)
        #expect(tlm["temperature"] as? Double == 25.5)
        #expect(tlm["adv_count"] as? Int == 256)
        #expect(tlm["uptime_s"] as? Int == 1000)
        let unsupported = try #require(try beacons(BeaconVectors.eddystoneTLMNegative).first)
        #expect(unsupported["battery_mv"] is NSNull)
        let noTemperature = try #require(try beacons(BeaconVectors.eddystoneTLMNoTemperature).first)
        #expect(noTemperature["temperature"] is NSNull)
        #expect(noTemperature["battery_mv"] as? Int == 3600)
        let uid = try #require(try beacons(BeaconVectors.eddystoneUID).first)
        #expect(uid["namespace"] as? String == "00112233445566778899")
        #expect(uid["instance"] as? String == "aabbccddeeff")
        #expect(uid["tx_power"] as? Int == -16)
        let url = try #require(try beacons(BeaconVectors.eddystoneURL).first)
        #expect(url["url"] as? String == "https://www.google.com/a.com")
        let eid = try #require(try beacons(BeaconVectors.eddystoneEID).first)
        #expect(eid["eid"] as? String == "0123456789abcdef")
        let unknown = try #require(try beacons(BeaconVectors.eddystoneUnknown).first)
        #expect(unknown["type"] as? String == "eddystone_unknown")
        #expect(unknown["frame_type"] as? Int == 0x40)
        let alt = try #require(try beacons(BeaconVectors.altBeacon).first)
        #expect(alt["type"] as? String == "altbeacon")
        #expect(alt["id1"] as? String == "2f234454-cf6d-4a0f-adf2-f4911ba9ffa6")
        #expect(alt["company_id"] as? Int == 0x0118)
        #expect(alt["reference_rssi"] as? Int == -59)
    }

    @Test(arguments: CaptureFixtures.all.map(\.capture))
    func everyCaptureReportIsOneValidJSONLine(capture: String) throws {
        let reports = CaptureTally(try CaptureFixtures.packets(capture)).reports
        #expect(!reports.isEmpty)
        for report in reports {
            let line = ReportJSON.line(for: report)
            #expect(!line.contains("\n"))
            let object = try Self.object(line)
            #expect(object["address"] as? String == report.address.description)
        }
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}
