import BeaconCore
import BeaconWire
import MessageContract
import Settings
import TestFixtures
import Testing

/// Golden payloads, written by hand from the contract in docs/topics.md, "Payloads".
@Suite struct MessagePayloadTests {
    let a1 = Fixtures.beacon(1)

    static func config() -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.gateway.floor = "1"
        c.gateway.room = "kitchen"
        c.ranging.filter.kind = .none
        c.beacons = [BeaconOverride(identity: Fixtures.beacon(1), name: "keys", measuredPower: -59)]
        c.regions = [BeaconRegion(name: "office", uuid: Fixtures.uuidA)]
        return c
    }

    @Test func beaconEnterEventStateAndAttributes() {
        var h = MessageHarness(Self.config())
        let o = h.see(Fixtures.sighting(a1, at: 0.5, rssi: -61, power: -60))
        let base = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/"
        let event = o.first { $0.topic == base + "event" }
        #expect(
            event?.payload
                == .json(
                    #"{"event":"enter","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":1,"name":"keys","gateway":"gw1","floor":"1","room":"kitchen","address":"c0:ff:ee:00:00:01","rssi":-61,"timestamp":"2024-05-01T12:00:00.500Z","last_seen":"2024-05-01T12:00:00.500Z"}"#
                ))
        #expect(event?.retain == false && event?.qos == 1)
        #expect(o.first { $0.topic == base + "state" }?.payload == .text("inside"))
        #expect(
            o.first { $0.topic == base + "attributes" }?.payload
                == .json(
                    #"{"state":"inside","since":"2024-05-01T12:00:00.500Z","last_seen":"2024-05-01T12:00:00.500Z","name":"keys"}"#
                ))
        let regionEvent = o.first { $0.topic == "beacons/regions/office/gw1/event" }
        #expect(
            regionEvent?.payload
                == .json(
                    #"{"event":"enter","region":"office","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":1,"name":"keys","gateway":"gw1","floor":"1","room":"kitchen","address":"c0:ff:ee:00:00:01","rssi":-61,"timestamp":"2024-05-01T12:00:00.500Z","last_seen":"2024-05-01T12:00:00.500Z"}"#
                ))
    }

    @Test func proximityAndRangingPayloads() {
        var h = MessageHarness(Self.config())
        h.see(Fixtures.sighting(a1, at: 0.5, rssi: -59, power: -60))
        let o = h.advance(1)
        // Override −59 wins over the frame's −60; ratio 1 → 1.01076 m → "1.01", near.
        let proximity = o.first { $0.kind == .proximity }
        #expect(proximity?.topic == "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/proximity")
        #expect(
            proximity?.payload
                == .json(
                    #"{"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":1,"name":"keys","gateway":"gw1","floor":"1","room":"kitchen","address":"c0:ff:ee:00:00:01","rssi":-59,"rssi_filtered":-59,"measured_power":-59,"accuracy":1.01,"proximity":"near","timestamp":"2024-05-01T12:00:01.000Z"}"#
                ))
        #expect(proximity?.qos == 0 && proximity?.retain == false)
        let ranging = o.first { $0.kind == .ranging }
        #expect(ranging?.topic == "beacons/regions/office/gw1/ranging")
        #expect(
            ranging?.payload
                == .json(
                    #"[{"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":1,"name":"keys","address":"c0:ff:ee:00:00:01","rssi":-59,"rssi_filtered":-59,"measured_power":-59,"accuracy":1.01,"proximity":"near","last_seen":"2024-05-01T12:00:00.500Z"}]"#
                ))
    }

    @Test func eddystoneTopicsUseNamespaceAndInstance() {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.mqtt.baseTopic = "home/ble"
        var h = MessageHarness(c)
        let id = BeaconIdentity.eddystone(BeaconID128(high: 0xEDD1_EBEA_C04E_5DEF, low: 0xA017_0BAD_CAFE_0001))
        let o = h.see(Fixtures.sighting(id, at: 0, rssi: 127, power: -62))
        #expect(o.first?.topic == "home/ble/eddystone/edd1ebeac04e5defa017/0badcafe0001/gw1/event")
        #expect(
            o.first?.payload.text.hasPrefix(
                #"{"event":"enter","namespace":"edd1ebeac04e5defa017","instance":"0badcafe0001","name":null,"gateway":"gw1","floor":null,"room":null,"address":"c0:ff:ee:00:00:01","rssi":null,"#
            )
                == true)
    }
}
