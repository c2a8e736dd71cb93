import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Testing

@Suite struct TopicTreeTests {
    static let tree = TopicTree(base: "home/ble", gateway: "gw1")
    static let eddystone = BeaconIdentity.eddystone(
        BeaconID128(high: 0xEDD1_EBEA_C04E_5DEF, low: 0xA017_0BAD_CAFE_0001))

    /// The man page's patterns are the builders' topics with placeholders: a real topic, its
    /// identity levels replaced, is the pattern (and the tree parses it back).
    @Test func patternsForPeopleMatchTheBuilders() {
        let real = TopicTree(base: "<base>", gateway: "<gw>")
        let b = Fixtures.beacon(2)
        for leaf in TopicTree.Leaf.allCases {
            let topic = real.beacon(b, leaf)
            let levels = topic.split(separator: "/")
            let pattern = TopicTree.pattern.beaconPattern(leaf).split(separator: "/")
            #expect(levels.count == pattern.count)
            #expect(Array(levels.prefix(1)) == Array(pattern.prefix(1)))
            #expect(Array(levels.suffix(2)) == Array(pattern.suffix(2)))
            #expect(pattern[1...3] == ["<uuid>", "<major>", "<minor>"])
            #expect(real.parse(topic) == .beacon(b, gateway: "<gw>", leaf))
        }
        #expect(TopicTree.pattern.region("<region>", .state) == "<base>/regions/<region>/<gw>/state")
        #expect(TopicTree.pattern.gatewayStatus == "<base>/gateways/<gw>/status")
    }

    @Test func spellsEveryTopicAsDocumented() {
        let t = Self.tree
        let b = Fixtures.beacon(2)
        #expect(t.beacon(b, .state) == "home/ble/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/state")
        #expect(
            t.beacon(Self.eddystone, .proximity) == "home/ble/eddystone/edd1ebeac04e5defa017/0badcafe0001/gw1/proximity"
        )
        #expect(t.region("office", .ranging) == "home/ble/regions/office/gw1/ranging")
        #expect(t.gatewayStatus == "home/ble/gateways/gw1/status")
        #expect(t.gatewayStats == "home/ble/gateways/gw1/stats")
        #expect(t.locatorStatus == "home/ble/locators/gw1/status")
        #expect(
            t.restoreSubscriptions == [
                "home/ble/+/+/+/gw1/attributes", "home/ble/regions/+/gw1/attributes", "home/ble/+/+/+/gw1/state",
                "home/ble/regions/+/gw1/state", "home/ble/devices/+/gw1/attributes", "home/ble/devices/+/gw1/state",
            ])
        #expect(
            t.restoreTopics(regions: ["office", "office"], beacons: [b, Self.eddystone, b]) == [
                "home/ble/regions/office/gw1/attributes",
                "home/ble/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/attributes",
                "home/ble/eddystone/edd1ebeac04e5defa017/0badcafe0001/gw1/attributes",
            ])
        #expect(t.anyGatewayStatus == "home/ble/gateways/+/status")
        #expect(t.anyGatewayStats == "home/ble/gateways/+/stats")
        #expect(t.anyGatewayAdvertising == "home/ble/gateways/+/advertising")
        #expect(t.locatorCalibration == "home/ble/locators/gw1/calibration")
        #expect(t.parse("home/ble/locators/gw1/calibration") == .locatorCalibration(gateway: "gw1"))
        #expect(
            t.locatorSubscriptions == [
                "home/ble/+/+/+/+/proximity", "home/ble/+/+/+/+/event", "home/ble/gateways/+/status",
                "home/ble/gateways/+/advertising", "home/ble/+/+/+/location", "home/ble/devices/+/+/proximity",
                "home/ble/devices/+/+/event",
                "home/ble/devices/+/location",
            ])
        #expect(t.location(b) == "home/ble/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/location")
        #expect(
            t.locations(of: [b, Self.eddystone, b]) == [
                "home/ble/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/location",
                "home/ble/eddystone/edd1ebeac04e5defa017/0badcafe0001/location",
            ])
        #expect(t.locatorEvent(Self.eddystone) == "home/ble/eddystone/edd1ebeac04e5defa017/0badcafe0001/event")
        #expect(TopicTree.homeAssistantBirth(prefix: "homeassistant") == "homeassistant/status")
        #expect(
            TopicTree.homeAssistantConfig(prefix: "ha", component: "sensor", node: "gw1", object: "x_distance")
                == "ha/sensor/gw1/x_distance/config")
        #expect(TopicTree.roomFeed("espresense/rooms", room: "kitchen") == "espresense/rooms/kitchen")
        #expect(TopicTree(Fixtures.regionConfig()).gatewayStatus == "beacons/gateways/gw1/status")
    }

    @Test func spellsAndParsesTheConfigurationTopics() {
        let t = Self.tree
        #expect(t.fleetConfigSet == "home/ble/fleet/config/set")
        #expect(t.gatewayConfigSet == "home/ble/gateways/gw1/config/set")
        #expect(t.gatewayConfig == "home/ble/gateways/gw1/config")
        #expect(t.gatewayConfigError == "home/ble/gateways/gw1/config/error")
        #expect(t.anyGatewayConfigSet == "home/ble/gateways/+/config/set")
        #expect(t.anyGatewayConfig == "home/ble/gateways/+/config")
        #expect(t.anyGatewayConfigError == "home/ble/gateways/+/config/error")
        #expect(t.parse(t.fleetConfigSet) == .fleetConfigSet)
        #expect(t.parse(t.gatewayConfigSet) == .gatewayConfigSet(gateway: "gw1"))
        #expect(t.parse(t.gatewayConfig) == .gatewayConfig(gateway: "gw1"))
        #expect(t.parse(t.gatewayConfigError) == .gatewayConfigError(gateway: "gw1"))
        for other in [
            "home/ble/fleet/config/get", "home/ble/fleet/x/set", "home/ble/gateways/gw1/config/other",
            "home/ble/gateways//config/set",
        ] {
            #expect(t.parse(other) == nil, "\(other)")
        }
    }

    @Test func parsesWhatItBuilds() {
        let t = Self.tree
        for id in [Fixtures.beacon(2), Fixtures.beacon(65535, major: 0, uuid: Fixtures.uuidB), Self.eddystone] {
            for leaf in TopicTree.Leaf.allCases {
                #expect(t.parse(t.beacon(id, leaf)) == .beacon(id, gateway: "gw1", leaf))
            }
            #expect(t.parse(t.location(id)) == .location(id))
            #expect(t.parse(t.locatorEvent(id)) == .locatorEvent(id))
            #expect(t.parse(t.locatorRoom(id)) == .locatorRoom(id))
        }
        for leaf in TopicTree.Leaf.allCases {
            #expect(t.parse(t.region("office", leaf)) == .region("office", gateway: "gw1", leaf))
        }
        #expect(t.parse(t.gatewayStatus) == .gatewayStatus(gateway: "gw1"))
        #expect(t.parse(t.gatewayStats) == .gatewayStats(gateway: "gw1"))
        #expect(t.parse(t.locatorStatus) == .locatorStatus(gateway: "gw1"))
        // Any gateway's topics parse, with that gateway's id.
        let other = TopicTree(base: "home/ble", gateway: "attic-pi")
        #expect(t.parse(other.beacon(Self.eddystone, .event)) == .beacon(Self.eddystone, gateway: "attic-pi", .event))
        #expect(t.parse(other.gatewayStats) == .gatewayStats(gateway: "attic-pi"))
    }

    @Test func rejectsForeignTopics() {
        let t = Self.tree
        let foreign = [
            "home/ble", "home/ble/", "home/blex/gateways/gw1/status", "beacons/gateways/gw1/status",
            "home/ble/gateways//status", "home/ble/gateways/gw1/uptime", "home/ble/gateways/a/b/status",
            "home/ble/locators/gw1/stats", "home/ble/regions/office/gw1/location", "home/ble/regions/office/gw1",
            "home/ble/not-a-uuid/1/2/gw1/attributes",
            "home/ble/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/70000/gw1/state",
            "home/ble/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/x/gw1/state",
            "home/ble/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/config",
            "home/ble/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/state",
            "home/ble/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/gw1/state/extra",
            "home/ble/eddystone/edd1ebeac04e5defa01/0badcafe0001/gw1/state",
            "home/ble/eddystone/edd1ebeac04e5defa017/0badcafe00/gw1/state",
            "home/ble/eddystone/zzd1ebeac04e5defa017/0badcafe0001/location",
            "homeassistant/status", "homeassistant/sensor/gw1/x/config",
        ]
        for topic in foreign { #expect(t.parse(topic) == nil, "\(topic)") }
    }
}
