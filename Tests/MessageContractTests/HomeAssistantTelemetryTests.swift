import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import Settings
import TestFixtures
import Testing

/// The telemetry entities of Home Assistant discovery, checked against HA's MQTT documentation
/// ("MQTT Sensor": device_class voltage with mV, temperature with °C; "MQTT Binary sensor":
/// device_class problem, payload_on ON / payload_off OFF; entity_category diagnostic; a value
/// template rendering `None` leaves the state unknown).
@Suite struct HomeAssistantTelemetryTests {
    static let key = "e2c56db5dffb48d2b060d0f5a71096e0_1_1"
    static let topic = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/telemetry"

    static func discovery(telemetry: Bool = true, gatewayEntities: Bool? = nil) -> HomeAssistantDiscovery {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.gateway.room = "Kitchen"
        c.beacons = [BeaconOverride(identity: Fixtures.beacon(1), name: "Keys")]
        c.telemetry.enabled = telemetry
        return HomeAssistantDiscovery(
            configuration: c, settings: HomeAssistantSettings(discovery: true, gatewayEntities: gatewayEntities),
            softwareVersion: "9.9.9")
    }

    static func telemetryConfigs(_ d: HomeAssistantDiscovery) throws -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for m in d.messages() {
            let p = try #require(JSONSerialization.jsonObject(with: Data(m.payload.text.utf8)) as? [String: Any])
            if p["state_topic"] as? String == topic { out[m.topic] = p }
        }
        return out
    }

    @Test func batteryTemperatureAndLowBatteryOnTheBeaconsDevice() throws {
        let configs = try Self.telemetryConfigs(Self.discovery())
        let prefix = "homeassistant/"
        let battery = try #require(configs[prefix + "sensor/beacon2mqtt_gw1/\(Self.key)_battery/config"])
        #expect(battery["device_class"] as? String == "voltage")
        #expect(battery["unit_of_measurement"] as? String == "mV")
        #expect(battery["state_class"] as? String == "measurement")
        #expect(battery["entity_category"] as? String == "diagnostic")
        #expect(battery["value_template"] as? String == "{{ value_json.battery_mv }}")
        #expect(battery["default_entity_id"] as? String == "sensor.keys_kitchen_battery")
        let temperature = try #require(configs[prefix + "sensor/beacon2mqtt_gw1/\(Self.key)_temperature/config"])
        #expect(temperature["device_class"] as? String == "temperature")
        #expect(temperature["unit_of_measurement"] as? String == "°C")
        #expect(temperature["entity_category"] as? String == "diagnostic")
        let low = try #require(configs[prefix + "binary_sensor/beacon2mqtt_gw1/\(Self.key)_low_battery/config"])
        #expect(low["device_class"] as? String == "problem")
        #expect(low["entity_category"] as? String == "diagnostic")
        #expect(low["default_entity_id"] as? String == "binary_sensor.keys_kitchen_low_battery")
        #expect(configs.count == 3)
        for (_, p) in configs {
            let device = try #require(p["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["beacon2mqtt_beacon_\(Self.key)"])
            #expect(device["via_device"] as? String == "beacon2mqtt_gateway_gw1")
            let availability = try #require(p["availability"] as? [[String: Any]])
            #expect(availability.first?["topic"] as? String == "beacons/gateways/gw1/status")
            #expect(p["expire_after"] as? Int == 150, "two 60 s intervals and 30 s")
        }
    }

    /// The low-battery template, applied here the way HA's Jinja would to the payload's three values.
    @Test func theLowBatteryTemplateCoversTrueFalseAndNull() throws {
        let low = try #require(
            try Self.telemetryConfigs(Self.discovery()).first { $0.key.contains("binary_sensor") }?.value)
        let template = try #require(low["value_template"] as? String)
        #expect(
            template
                == "{% if value_json.low_battery is none %}None{% elif value_json.low_battery %}ON{% else %}OFF{% endif %}"
        )
        #expect(low["payload_on"] == nil && low["payload_off"] == nil, "HA's defaults ON / OFF apply")
    }

    @Test func noTelemetryEntitiesWhenTelemetryIsOffAndTheyDoNotNeedGatewayEntities() throws {
        #expect(try Self.telemetryConfigs(Self.discovery(telemetry: false)).isEmpty)
        #expect(try Self.telemetryConfigs(Self.discovery(gatewayEntities: false)).count == 3)
        #expect(Self.discovery().removals().filter { $0.topic.contains("_low_battery") }.count == 1)
    }
}
