import BeaconCore
import BeaconWire
import GatewayPipeline
import IdentityCrypto
import MessageContract
import Settings
import TestFixtures
import Testing
import Vocabulary

/// A device's messages: its own topic tree under `<base>/devices/<name>/<gw>/`, payloads with the
/// current address and `"identity"`, and nothing at all for devices that are not configured.
@Suite struct DeviceMessagesTests {
    static let key = IdentityResolvingKey(text: "ec0234a357c8ad05341010a60a397d9b")!
    static let phone = BeaconIdentity.device(named: "alice-phone")
    static let tag = BluetoothAddress("c1:02:03:04:05:06")!

    static func config() -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.mqtt.baseTopic = "home/ble"
        c.ranging.publish.heartbeat = .zero
        c.devices = [
            DeviceSettings(name: "alice-phone", identification: .irk(key)),
            DeviceSettings(name: "keys", identification: .address(tag)),
        ]
        return c
    }

    /// One report without a beacon frame (Flags, and Apple's "nearby" data as phones send).
    static func packet(
        _ address: BluetoothAddress, type: UInt8 = 1, at seconds: Double, rssi: Int8 = -60
    )
        -> CapturedPacket
    {
        let ad: [UInt8] = [0x02, 0x01, 0x1A, 0x07, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, 0x00]
        return CapturedPacket(
            timestamp: Fixtures.at(seconds),
            bytes: AdvertisingReportEvent.bytes(address: address, addressType: type, eventType: 0, data: ad, rssi: rssi)
        )
    }

    @Test func devicesHaveTheirOwnTopics() {
        let t = TopicTree(Self.config())
        #expect(t.beacon(Self.phone, .state) == "home/ble/devices/alice-phone/gw1/state")
        #expect(t.beacon(.device(named: "keys"), .proximity) == "home/ble/devices/keys/gw1/proximity")
        #expect(t.location(Self.phone) == "home/ble/devices/alice-phone/location")
        #expect(t.locatorEvent(Self.phone) == "home/ble/devices/alice-phone/event")
        for leaf in TopicTree.Leaf.allCases {
            #expect(t.parse(t.beacon(Self.phone, leaf)) == .beacon(Self.phone, gateway: "gw1", leaf))
        }
        #expect(t.parse("home/ble/devices/alice-phone/location") == .location(Self.phone))
        #expect(t.parse("home/ble/devices/alice-phone/event") == .locatorEvent(Self.phone))
        #expect(t.parse("home/ble/devices//gw1/state") == nil)
        #expect(t.parse("home/ble/devices/alice-phone/gw1/nonsense") == nil)
        #expect(TopicTree.pattern.devicePattern(.state) == "<base>/devices/<name>/<gw>/state")
        // A tree that does not know the name (a locator before it read one) learns it from a topic.
        var bare = TopicTree(base: "home/ble")
        #expect(
            bare.parse("home/ble/devices/alice-phone/gw1/proximity") == .beacon(Self.phone, gateway: "gw1", .proximity))
        #expect(bare.location(Self.phone) != "home/ble/devices/alice-phone/location")
        let learnt = bare.learnDevice(in: "home/ble/devices/alice-phone/gw1/proximity")
        #expect(learnt)
        #expect(bare.location(Self.phone) == "home/ble/devices/alice-phone/location")
        let beacon = bare.learnDevice(in: "home/ble/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/proximity")
        #expect(!beacon)
    }

    @Test func aRotatingPhoneEntersOnceAndItsPayloadsCarryTheCurrentAddress() throws {
        var p = Pipeline(configuration: Self.config(), identityResolver: AESIdentityResolver.factory)
        var out: [OutboundMessage] = []
        let first = BluetoothAddress("70:81:94:0d:fb:aa")!
        let second = ResolvablePrivateAddress.random(for: Self.key)
        for i in 0..<5 { p.ingest(Self.packet(first, at: Double(i)), into: &out) }
        // Farther after the rotation, so the publish policy sends another proximity message.
        for i in 5..<10 { p.ingest(Self.packet(second, at: Double(i), rssi: -85), into: &out) }
        p.advance(to: Fixtures.at(30), into: &out)

        let events = out.filter { $0.topic == "home/ble/devices/alice-phone/gw1/event" }
        #expect(events.count == 2)
        let enter = try #require(events.first?.payload.text)
        #expect(enter.hasPrefix(#"{"event":"enter","identity":"irk","name":"alice-phone","gateway":"gw1","#))
        #expect(enter.contains(#""address":"70:81:94:0d:fb:aa""#))
        let exit = try #require(events.last?.payload.text)
        #expect(exit.hasPrefix(#"{"event":"exit","identity":"irk","name":"alice-phone""#))
        #expect(exit.contains(#""address":"\#(second)""#))
        #expect(exit.contains(#""timestamp":"2024-05-01T12:00:19.000Z""#))

        let proximity = out.filter { $0.topic == "home/ble/devices/alice-phone/gw1/proximity" }
        #expect(!proximity.isEmpty)
        #expect(
            proximity.allSatisfy {
                $0.payload.text.hasPrefix(#"{"identity":"irk","name":"alice-phone","gateway":"gw1""#)
            })
        #expect(proximity.first?.payload.text.contains(#""address":"70:81:94:0d:fb:aa""#) == true)
        #expect(proximity.last?.payload.text.contains(#""address":"\#(second)""#) == true)

        let states = out.filter { $0.topic == "home/ble/devices/alice-phone/gw1/state" }.map(\.payload.text)
        #expect(states == ["inside", "outside"])
        #expect(p.counters.devices == 10)
    }

    @Test func aTagByAddressSaysSo() throws {
        var p = Pipeline(configuration: Self.config(), identityResolver: AESIdentityResolver.factory)
        var out: [OutboundMessage] = []
        p.ingest(Self.packet(Self.tag, type: 1, at: 0), into: &out)
        let enter = try #require(out.first { $0.topic == "home/ble/devices/keys/gw1/event" })
        #expect(enter.payload.text.hasPrefix(#"{"event":"enter","identity":"address","name":"keys","#))
    }

    @Test func strangersAreNeverPublished() {
        var p = Pipeline(configuration: Self.config(), identityResolver: AESIdentityResolver.factory)
        var out: [OutboundMessage] = []
        for i in 0..<200 {
            let stranger = ResolvablePrivateAddress.random(for: ResolvablePrivateAddress.randomKey())
            p.ingest(Self.packet(stranger, at: Double(i) / 10), into: &out)
            p.ingest(
                Self.packet(BluetoothAddress(rawValue: UInt64(i) << 8 | 0xC0_0000_0000_00), at: Double(i) / 10),
                into: &out)
        }
        p.advance(to: Fixtures.at(60), into: &out)
        #expect(out.isEmpty)
        #expect(p.counters.unresolvedPrivateAddresses == 200)
        #expect(p.counters.devices == 0)
        #expect(p.trackedBeacons.isEmpty)
    }

    @Test func theLocatorPlacesADeviceUnderItsName() throws {
        var locator = Locator(settings: LocatorSettings(), baseTopic: "home/ble")
        let payload =
            #"{"identity":"irk","name":"alice-phone","gateway":"gw1","floor":"1","room":"kitchen","address":"70:81:94:0d:fb:aa","rssi":-60.0,"rssi_filtered":-60.0,"measured_power":-59,"accuracy":1.20,"proximity":"near","timestamp":"2024-05-01T12:00:00.000Z"}"#
        let handled = locator.handle(topic: "home/ble/devices/alice-phone/gw1/proximity", payload: payload)
        #expect(handled)
        var out: [OutboundMessage] = []
        locator.advance(to: Fixtures.at(30), into: &out)
        let location = try #require(out.first { $0.kind == .location && $0.retain })
        #expect(location.topic == "home/ble/devices/alice-phone/location")
        #expect(location.payload.text.contains(#""room":"kitchen""#))
        let event = try #require(out.first { $0.topic == "home/ble/devices/alice-phone/event" })
        #expect(event.payload.text.hasPrefix(#"{"event":"location","name":"alice-phone""#))
    }
}
