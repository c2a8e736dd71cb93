import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import Settings
import TestFixtures
import Testing

/// How the devices link up in Home Assistant: a beacon's `via_device` is named by one publisher
/// only (HA keeps whichever it heard last, so two would make it flip), a phone is no iBeacon, and
/// a gateway or locator with a metrics endpoint links to it as its `configuration_url`.
@Suite struct HomeAssistantDeviceLinkTests {
    static let phone = DeviceSettings(
        name: "alice-phone", identification: .irk(IdentityResolvingKey(text: "ec0234a357c8ad05341010a60a397d9b")!))

    static func configuration(_ id: String) -> Configuration {
        var c = HomeAssistantDiscoveryTests.configuration()
        c.gateway.id = id
        c.telemetry.enabled = true
        c.devices = [phone]
        c.homeAssistant.discovery = true
        return c
    }

    /// Every `via_device` the configs give the devices that are not the publisher's own.
    static func vias(_ messages: [OutboundMessage]) throws -> Set<String> {
        var out: Set<String> = []
        for m in messages {
            let device = try #require(try HomeAssistantDiscoveryTests.json(m)["device"] as? [String: Any])
            let id = (device["identifiers"] as? [String])?.first ?? ""
            guard id.hasPrefix("beacon2mqtt_beacon_") || id.hasPrefix("beacon2mqtt_device_") else {
                #expect(device["via_device"] == nil, "a gateway or locator is reached through nothing: \(m.topic)")
                continue
            }
            out.insert(device["via_device"] as? String ?? "none")
        }
        return out
    }

    static func gateway(_ c: Configuration) -> [OutboundMessage] {
        HomeAssistantDiscovery(configuration: c, settings: c.homeAssistant, softwareVersion: "9.9.9").messages()
    }

    static func locator(_ c: Configuration) -> [OutboundMessage] {
        HomeAssistantLocatorDiscovery(configuration: c, softwareVersion: "9.9.9").messages()
    }

    @Test func withALocatorOnlyTheLocatorNamesItselfSoTheLinkCannotFlip() throws {
        // The documented fleet: gateways with gateway_entities off (telemetry still on the beacons).
        var a = Self.configuration("A")
        a.homeAssistant.gatewayEntities = false
        var b = Self.configuration("B")
        b.homeAssistant.gatewayEntities = false
        #expect(try Self.vias(Self.gateway(a)) == ["none"])
        #expect(try Self.vias(Self.gateway(b)) == ["none"])
        #expect(try Self.vias(Self.locator(Self.configuration("L"))) == ["beacon2mqtt_locator_L"])
    }

    @Test func oneGatewayWithoutALocatorNamesItselfForBeaconsPhonesAndTelemetry() throws {
        let messages = Self.gateway(Self.configuration("A"))
        #expect(messages.contains { $0.topic.hasSuffix("_battery/config") })
        #expect(try Self.vias(messages) == ["beacon2mqtt_gateway_A"])
    }

    @Test func viaDeviceSaysWhoNamesItselfWhateverTheGatewayEntities() throws {
        var entitiesButNoVia = Self.configuration("A")
        entitiesButNoVia.homeAssistant.viaDevice = false
        #expect(try Self.vias(Self.gateway(entitiesButNoVia)) == ["none"])
        #expect(Self.gateway(entitiesButNoVia).contains { $0.topic.contains("_tracker/config") })

        var viaButNoEntities = Self.configuration("A")
        viaButNoEntities.homeAssistant.gatewayEntities = false
        viaButNoEntities.homeAssistant.viaDevice = true
        #expect(try Self.vias(Self.gateway(viaButNoEntities)) == ["beacon2mqtt_gateway_A"])

        var secondLocator = Self.configuration("L2")
        secondLocator.homeAssistant.viaDevice = false
        #expect(try Self.vias(Self.locator(secondLocator)) == ["none"])
    }

    @Test func aGatewayWithItsOwnLocatorLeavesTheLinkToTheLocator() throws {
        var c = Self.configuration("A")
        c.locator.enabled = true
        c.homeAssistant.viaDevice = true
        c.homeAssistant.gatewayEntities = true
        #expect(try Self.vias(Self.gateway(c)) == ["none"])
        #expect(try Self.vias(Self.locator(c)) == ["beacon2mqtt_locator_A"])
    }

    @Test func aPhoneIsABluetoothDeviceNotAnIBeacon() throws {
        for messages in [Self.gateway(Self.configuration("A")), Self.locator(Self.configuration("L"))] {
            var models: [String: Set<String>] = [:]
            for m in messages {
                let device = try #require(try HomeAssistantDiscoveryTests.json(m)["device"] as? [String: Any])
                models[(device["identifiers"] as? [String])?.first ?? "", default: []].insert(
                    device["model"] as? String ?? "")
            }
            #expect(models["beacon2mqtt_device_alice-phone"] == ["Bluetooth LE device"])
            #expect(models["beacon2mqtt_beacon_\(HomeAssistantDiscoveryTests.beaconKey)"] == ["iBeacon/AltBeacon"])
        }
    }

    static func configurationURLs(_ messages: [OutboundMessage]) throws -> Set<String> {
        Set(
            try messages.map {
                let device = try #require(try HomeAssistantDiscoveryTests.json($0)["device"] as? [String: Any])
                return device["configuration_url"] as? String ?? "none"
            })
    }

    @Test func theMetricsEndpointIsTheGatewaysAndLocatorsConfigurationURL() throws {
        var c = Self.configuration("hall-pi")
        #expect(try Self.configurationURLs(Self.gateway(c)) == ["none"])
        c.metrics.listen = .init(address: "192.168.1.20", port: 9464)
        let gateway = Self.gateway(c)
        let own = gateway.filter { $0.topic.contains("/beacon2mqtt_hall-pi/connectivity/") }
        #expect(try Self.configurationURLs(own) == ["http://192.168.1.20:9464/metrics"])
        // Only on the gateway's own device: the beacons are not the gateway's to configure.
        #expect(try Self.configurationURLs(gateway) == ["http://192.168.1.20:9464/metrics", "none"])
        c.metrics.listen = .init(address: "0.0.0.0", port: 9464)
        let everywhere = Self.locator(c).filter { $0.topic.contains("/connectivity/") }
        #expect(try Self.configurationURLs(everywhere) == ["http://hall-pi:9464/metrics"])
        c.metrics.listen = .init(address: "fd00::20", port: 9464)
        #expect(
            try Self.configurationURLs(Self.locator(c).filter { $0.topic.contains("/connectivity/") })
                == ["http://[fd00::20]:9464/metrics"])
        c.metrics.listen = .init(address: "::", port: 9464)
        #expect(
            try Self.configurationURLs(Self.gateway(c).filter { $0.topic.contains("/connectivity/") })
                == ["http://hall-pi:9464/metrics"])
    }
}
