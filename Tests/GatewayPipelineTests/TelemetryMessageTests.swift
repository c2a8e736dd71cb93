import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import TestFixtures
import Testing
import Vocabulary

/// The telemetry message through the whole pure pipeline (packets in, messages out): topic,
/// retain, QoS and the payload byte for byte (docs/topics.md, “Telemetry”).
@Suite struct TelemetryMessageTests {
    static let address: [UInt8] = [0xC1, 0x7C, 0x1C, 0xCB, 0xB1, 0xEB]

    /// An LE Advertising Report event (H4 indicator first) carrying `ad` from eb:b1:cb:1c:7c:c1.
    static func packet(_ ad: [UInt8], at seconds: Double, rssi: Int8 = -50) -> CapturedPacket {
        let report: [UInt8] = [0x01, 0x03, 0x01] + address + [UInt8(ad.count)] + ad + [UInt8(bitPattern: rssi)]
        let event: [UInt8] = [0x04, 0x3E, UInt8(report.count + 1), 0x02] + report
        return CapturedPacket(timestamp: Fixtures.at(seconds), bytes: event)
    }

    static let uid: [UInt8] = [
        0x03, 0x03, 0xAA, 0xFE, 0x15, 0x16, 0xAA, 0xFE, 0x00, 0xEB, 0xED, 0xD1, 0xEB, 0xEA, 0xC0, 0x4E, 0x5D, 0xEF,
        0xA0, 0x17, 0xEB, 0xB1, 0xCB, 0x1C, 0x7C, 0xC1,
    ]

    static func tlm(millivolts: UInt16, temperature: UInt16) -> [UInt8] {
        [
            0x03, 0x03, 0xAA, 0xFE, 0x11, 0x16, 0xAA, 0xFE, 0x20, 0x00, UInt8(millivolts >> 8),
            UInt8(millivolts & 0xFF),
            UInt8(temperature >> 8), UInt8(temperature & 0xFF), 0x00, 0x06, 0x1B, 0x17, 0x00, 0x43, 0x7C, 0xB8,
        ]
    }

    static func config() -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.telemetry.interval = .seconds(60)
        c.telemetry.lowBatteryMillivolts = 2500
        return c
    }

    @Test func telemetryPayloadTopicAndFlags() throws {
        var p = Pipeline(configuration: Self.config())
        var out: [OutboundMessage] = []
        p.ingest(Self.packet(Self.uid, at: 0), into: &out)
        p.ingest(Self.packet(Self.uid, at: 0.1), into: &out)
        // 0xF380 = −12.5 °C.
        p.ingest(Self.packet(Self.tlm(millivolts: 2925, temperature: 0xF380), at: 0.2), into: &out)
        let telemetry = out.of(.telemetry)
        try #require(telemetry.count == 1)
        #expect(telemetry[0].topic == "beacons/eddystone/edd1ebeac04e5defa017/ebb1cb1c7cc1/gw1/telemetry")
        #expect(telemetry[0].retain && telemetry[0].qos == 1)
        #expect(
            telemetry[0].payload
                == .json(
                    #"{"namespace":"edd1ebeac04e5defa017","instance":"ebb1cb1c7cc1","name":null,"gateway":"gw1","address":"eb:b1:cb:1c:7c:c1","battery_mv":2925,"low_battery":false,"temperature":-12.5,"adv_count":400151,"uptime_s":442284,"tlm_seen":"2024-05-01T12:00:00.200Z","url":null,"tx_power":-21,"tx_power_at_m":0,"interval_ms":100,"timestamp":"2024-05-01T12:00:00.200Z"}"#
                ))
        #expect(p.counters.unidentifiedFrames == 1)
    }

    @Test func unsupportedFieldsAreNullAndTheBatteryCrossingGoesAtOnce() throws {
        var p = Pipeline(configuration: Self.config())
        var out: [OutboundMessage] = []
        p.ingest(Self.packet(Self.uid, at: 0), into: &out)
        p.ingest(Self.packet(Self.tlm(millivolts: 0, temperature: 0x8000), at: 0.1), into: &out)
        let first = try #require(out.of(.telemetry).first?.payload.text)
        #expect(first.contains(#""battery_mv":null,"low_battery":null,"temperature":null,"#), "\(first)")
        out = []
        p.ingest(Self.packet(Self.tlm(millivolts: 2600, temperature: 0x1400), at: 5), into: &out)
        #expect(out.of(.telemetry).isEmpty, "the first reading is no crossing: rate-limited")
        p.ingest(Self.packet(Self.tlm(millivolts: 2400, temperature: 0x1400), at: 6), into: &out)
        let crossing = try #require(out.of(.telemetry).first?.payload.text)
        #expect(crossing.contains(#""battery_mv":2400,"low_battery":true,"temperature":20,"#), "\(crossing)")
    }

    @Test func telemetryOffPublishesNone() {
        var c = Self.config()
        c.telemetry.enabled = false
        var p = Pipeline(configuration: c)
        var out: [OutboundMessage] = []
        for i in 0..<100 {
            p.ingest(Self.packet(Self.uid, at: Double(i)), into: &out)
            p.ingest(Self.packet(Self.tlm(millivolts: 2925, temperature: 0x1400), at: Double(i) + 0.5), into: &out)
        }
        p.finish(into: &out)
        #expect(out.of(.telemetry).isEmpty)
        #expect(out.of(.event).count == 2)
    }

    /// A reload applies the new interval to windows already open, and turning telemetry off stops it.
    @Test func aReloadChangesTheIntervalAndCanTurnTelemetryOff() {
        var p = Pipeline(configuration: Self.config())
        var out: [OutboundMessage] = []
        p.ingest(Self.packet(Self.uid, at: 0), into: &out)
        p.ingest(Self.packet(Self.tlm(millivolts: 2925, temperature: 0x1400), at: 0.5), into: &out)
        #expect(out.of(.telemetry).count == 1)
        var shorter = Self.config()
        shorter.telemetry.interval = .seconds(10)
        p.reconfigure(shorter, at: Fixtures.at(1), into: &out)
        out = []
        p.ingest(Self.packet(Self.uid, at: 2), into: &out)
        p.advance(to: Fixtures.at(10.4), into: &out)
        #expect(out.of(.telemetry).isEmpty)
        p.advance(to: Fixtures.at(10.5), into: &out)
        #expect(out.of(.telemetry).count == 1, "the window that opened at 0.5 s ends 10 s later")
        var off = Self.config()
        off.telemetry.enabled = false
        p.reconfigure(off, at: Fixtures.at(11), into: &out)
        out = []
        for i in 12..<100 {
            p.ingest(Self.packet(Self.uid, at: Double(i)), into: &out)
            p.ingest(Self.packet(Self.tlm(millivolts: 2000, temperature: 0x1400), at: Double(i) + 0.5), into: &out)
        }
        #expect(out.of(.telemetry).isEmpty)
    }

    /// A reload that stops monitoring the beacon withdraws its retained telemetry, and the window
    /// it had open publishes nothing after that.
    @Test func aReloadThatStopsMonitoringTheBeaconWithdrawsItsTelemetry() {
        var c = Self.config()
        c.regions = [
            BeaconRegion(
                name: "eddy", scheme: .eddystone, uuid: BeaconID128(uuidString: "edd1ebea-c04e-5def-a017-000000000000")!
            )
        ]
        var p = Pipeline(configuration: c)
        var out: [OutboundMessage] = []
        p.ingest(Self.packet(Self.uid, at: 0), into: &out)
        p.ingest(Self.packet(Self.tlm(millivolts: 2925, temperature: 0x1400), at: 0.5), into: &out)
        p.ingest(Self.packet(Self.uid, at: 1), into: &out)
        #expect(out.of(.telemetry).count == 1)
        var other = c
        other.regions = [BeaconRegion(name: "office", uuid: Fixtures.uuidA)]
        out = []
        p.reconfigure(other, at: Fixtures.at(2), into: &out)
        let topic = "beacons/eddystone/edd1ebeac04e5defa017/ebb1cb1c7cc1/gw1/telemetry"
        #expect(out.contains { $0.topic == topic && $0.payload == .text("") && $0.retain })
        out = []
        p.advance(to: Fixtures.at(200), into: &out)
        #expect(out.of(.telemetry).isEmpty)
    }

    /// A beacon that matches no configured region is not tracked, so its TLM is not published.
    @Test func beaconsOutsideTheRegionsHaveNoTelemetry() {
        var c = Self.config()
        c.regions = [BeaconRegion(name: "office", uuid: Fixtures.uuidA)]
        var p = Pipeline(configuration: c)
        var out: [OutboundMessage] = []
        p.ingest(Self.packet(Self.uid, at: 0), into: &out)
        p.ingest(Self.packet(Self.tlm(millivolts: 2925, temperature: 0x1400), at: 0.5), into: &out)
        p.finish(into: &out)
        #expect(out.of(.telemetry).isEmpty)
    }
}
