import BeaconCore
import BeaconWire
import Settings
import TestFixtures
import Testing

@testable import MessageContract

/// `compat: espresense`: the gateway's proximity as ESPresense's device report (firmware
/// src/BleFingerprint.cpp `fill`/`setId`, ESPresense-companion src/Models/DeviceMessage.cs;
/// Tests/Fixtures/foreign/PROVENANCE.md), read back by the locator's own ESPresense parser.
@Suite struct ESPresenseFeedTests {
    static func configuration(offset: Double = 0, compat: [CompatFormat] = [.espresense]) -> Configuration {
        var c = Configuration()
        c.gateway.id = "hall"
        c.gateway.rssiOffset = offset
        c.compat = compat
        return c
    }

    static func ranged(
        _ id: BeaconIdentity, name: String? = nil, filtered: Double? = -67.4, accuracy: Double = 2.153
    )
        -> RangedBeacon
    {
        RangedBeacon(
            identity: id, name: name, address: Fixtures.address, rssi: -68, filteredRSSI: filtered, measuredPower: -59,
            accuracy: accuracy, proximity: .near, lastSeen: Fixtures.t0)
    }

    @Test func offUnlessCompatListsIt() {
        #expect(ESPresenseFeed(configuration: Self.configuration(compat: [])) == nil)
        #expect(ESPresenseFeed(configuration: Self.configuration())?.node == "hall")
    }

    @Test func anIBeaconReportIsTheFirmwaresAndReadsBackAsTheSameBeacon() throws {
        let feed = try #require(ESPresenseFeed(configuration: Self.configuration()))
        let m = try #require(feed.message(Self.ranged(Fixtures.beacon(1)), rssiOffset: 0))
        let id = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1"
        #expect(m.topic == "espresense/devices/\(id)/hall")
        #expect(
            m.payload.text
                == #"{"mac":"c0ffee000001","id":"\#(id)","rssi@1m":-59,"rssi":-67.4,"rxAdj":0,"distance":2.15}"#)
        #expect(m.qos == 0 && !m.retain && m.kind == .proximity)
        let back = try ForeignReport.espresense(payload: Array(m.payload.text.utf8))
        #expect(
            back == ForeignReport(subject: .beacon(Fixtures.beacon(1)), rssi: -67.4, measuredPower: -59, distance: 2.15)
        )
    }

    /// The firmware prints the namespace's fifth octet twice; the id must be the one its nodes give.
    @Test func anEddystoneIDRepeatsTheFifthNamespaceOctetAsTheFirmwareDoes() throws {
        let bytes: [UInt8] = [
            0xed, 0xd1, 0xeb, 0xea, 0xc0, 0x4e, 0x5d, 0xef, 0xa0, 0x17, 0xeb, 0xb1, 0xcb, 0x1c, 0x7c, 0xc1,
        ]
        let id = BeaconIdentity.eddystone(ForeignReport.id128(bytes))
        let text = try #require(ESPresenseFeed.deviceID(id, name: nil))
        #expect(text == "eddy:edd1ebeac0c04e5defa017-ebb1cb1c7cc1")
        #expect(ForeignReport.espresenseSubject(text) == .beacon(id))
    }

    /// A configured device goes under its name (ESPresense's alias), never its key.
    @Test func aDeviceIsPublishedUnderItsName() throws {
        let feed = try #require(ESPresenseFeed(configuration: Self.configuration()))
        let m = try #require(
            feed.message(Self.ranged(.device(named: "alice-phone"), name: "alice-phone"), rssiOffset: 0))
        #expect(m.topic == "espresense/devices/alice-phone/hall")
        #expect(m.payload.text.contains(#""id":"alice-phone","name":"alice-phone","#))
    }

    /// ESPresense subtracts `rxAdj` from what it hears; the gateway adds `rssi_offset`.
    @Test func theGatewaysOffsetIsESPresensesRxAdjNegated() throws {
        let whole = try #require(ESPresenseFeed(configuration: Self.configuration(offset: 3)))
        #expect(
            whole.message(Self.ranged(Fixtures.beacon(1)), rssiOffset: 3)?.payload.text.contains(#""rxAdj":-3,"#)
                == true)
        let half = try #require(ESPresenseFeed(configuration: Self.configuration(offset: -2.5)))
        #expect(
            half.message(Self.ranged(Fixtures.beacon(1)), rssiOffset: -2.5)?.payload.text.contains(#""rxAdj":2.5,"#)
                == true)
        // No filtered value yet: the raw RSSI with the offset.
        let raw = whole.message(Self.ranged(Fixtures.beacon(1), filtered: nil), rssiOffset: 3)
        #expect(raw?.payload.text.contains(#""rssi":-65,"#) == true)
    }

    /// The companion reads a missing distance as 0 m: no report until there is one.
    @Test func noReportWithoutADistance() throws {
        let feed = try #require(ESPresenseFeed(configuration: Self.configuration()))
        #expect(feed.message(Self.ranged(Fixtures.beacon(1), accuracy: -1), rssiOffset: 0) == nil)
    }

    @Test func theComposerAddsTheReportAfterProximityOnlyWhenOn() {
        let event = MonitoringEvent.didRangeBeacon(Self.ranged(Fixtures.beacon(1)), at: Fixtures.t0)
        var on = MessageComposer(Self.configuration())
        var out: [OutboundMessage] = []
        on.compose(event, into: &out)
        #expect(out.map(\.kind) == [.proximity, .proximity])
        #expect(out.last?.topic.hasPrefix("espresense/devices/") == true)
        var off = MessageComposer(Self.configuration(compat: []))
        out = []
        off.compose(event, into: &out)
        #expect(out.count == 1)
    }
}
