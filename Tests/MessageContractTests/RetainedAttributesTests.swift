import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Testing
import Vocabulary

@Suite struct RetainedAttributesTests {
    @Test func parsesRFC3339AndRoundTripsOurOwnFormat() {
        #expect(RetainedAttributes.timestamp(rfc3339: "1970-01-01T00:00:00Z") == Timestamp(microseconds: 0))
        // 2024-05-01T12:00:00Z = 1 714 564 800 s (date -u -d ... +%s).
        #expect(
            RetainedAttributes.timestamp(rfc3339: "2024-05-01T12:00:00.123Z")
                == Timestamp(microseconds: 1_714_564_800_123_000))
        let t = Timestamp(microseconds: 951_782_400_250_000)  // 2000-02-29T00:00:00.250Z
        #expect(t.rfc3339 == "2000-02-29T00:00:00.250Z")
        #expect(RetainedAttributes.timestamp(rfc3339: t.rfc3339) == t)
        #expect(RetainedAttributes.timestamp(rfc3339: "2024-05-01 12:00:00Z") == nil)
        #expect(RetainedAttributes.timestamp(rfc3339: "2024-05-01T12:00:00+02:00") == nil)
        #expect(RetainedAttributes.timestamp(rfc3339: "2024-13-01T12:00:00Z") == nil)
    }

    @Test func readsRegionAndBeaconAttributesOfThisGateway() {
        let region = RetainedAttributes.restoredState(
            topic: "home/ble/regions/office/gw1/attributes",
            payload:
                #"{"state":"inside","since":"2024-05-01T12:00:00.500Z","last_seen":"2024-05-01T12:01:00.000Z","beacons_in_range":2}"#,
            baseTopic: "home/ble", gatewayID: "gw1")
        #expect(
            region
                == RestoredState(
                    subject: .region("office"), state: .inside, since: Fixtures.at(0.5), lastSeen: Fixtures.at(60)))
        let beacon = RetainedAttributes.restoredState(
            topic: "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/attributes",
            payload: #"{"state":"outside","since":"2024-05-01T12:00:10.000Z","last_seen":null,"name":null}"#,
            baseTopic: "beacons", gatewayID: "gw1")
        #expect(
            beacon
                == RestoredState(
                    subject: .beacon(Fixtures.beacon(2)), state: .outside, since: Fixtures.at(10), lastSeen: nil))
        let eddystone = RetainedAttributes.restoredState(
            topic: "beacons/eddystone/edd1ebeac04e5defa017/0badcafe0001/gw1/attributes",
            payload: #"{"state":"inside","since":"2024-05-01T12:00:00.000Z","last_seen":"2024-05-01T12:00:00.000Z"}"#,
            baseTopic: "beacons", gatewayID: "gw1")
        #expect(
            eddystone?.subject
                == .beacon(.eddystone(BeaconID128(high: 0xEDD1_EBEA_C04E_5DEF, low: 0xA017_0BAD_CAFE_0001))))
    }

    @Test func ignoresOtherGatewaysClearedTopicsAndForeignPayloads() {
        let payload = #"{"state":"inside","since":"2024-05-01T12:00:00.000Z","last_seen":null}"#
        #expect(
            RetainedAttributes.restoredState(
                topic: "beacons/regions/office/gw2/attributes", payload: payload, baseTopic: "beacons", gatewayID: "gw1"
            )
                == nil)
        #expect(
            RetainedAttributes.restoredState(
                topic: "beacons/regions/office/gw1/attributes", payload: "", baseTopic: "beacons", gatewayID: "gw1")
                == nil)
        #expect(
            RetainedAttributes.restoredState(
                topic: "beacons/not-a-uuid/1/2/gw1/attributes", payload: payload, baseTopic: "beacons",
                gatewayID: "gw1") == nil)
    }
}
