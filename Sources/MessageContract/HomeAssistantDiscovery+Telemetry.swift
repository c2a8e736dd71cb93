import BeaconCore
import BeaconWire
import Settings
import Vocabulary

extension HomeAssistantDiscovery {
    /// Per configured beacon, on its own device, when `telemetry.enabled`: the battery voltage and
    /// temperature from its Eddystone-TLM and a low-battery problem sensor, all diagnostic, reading
    /// this gateway's retained `<base>/<beacon>/<gw>/telemetry` (docs/topics.md, “Telemetry”).
    /// Independent of `gateway_entities`: a battery is the beacon's, whoever locates it. A null in
    /// the payload renders as `None`, which HA's MQTT sensors take as unknown.
    func telemetryEntities() -> [HomeAssistantEntity] {
        guard configuration.telemetry.enabled else { return [] }
        // A beacon heard publishes at least every interval: two missed and it goes unavailable
        // (and HA restores the last value across its own restart only for sensors that expire).
        let expire = Int(configuration.telemetry.interval.microseconds / 1_000_000) * 2 + 30
        var out: [HomeAssistantEntity] = []
        for beacon in configuration.beacons {
            let id = beacon.identity
            let device = HomeAssistantDevice.beacon(id, name: beacon.name, via: beaconVia)
            let key = HomeAssistantDevice.key(id)
            let topic = topics.beacon(id, .telemetry)

            var battery = HomeAssistantEntity(
                .sensor, device: device, node: node, key: key + "_battery", name: "\(place) battery", stateTopic: topic)
            battery.valueTemplate = "{{ value_json.battery_mv }}"
            battery.deviceClass = "voltage"
            battery.measurement.unit = "mV"
            battery.measurement.displayPrecision = 0
            // A battery's slow decline is what long-term statistics are for.
            battery.measurement.stateClass = "measurement"
            battery.diagnostic = true
            battery.availability = [gatewayOnline]
            battery.expireAfter = expire
            out.append(battery)

            var temperature = HomeAssistantEntity(
                .sensor, device: device, node: node, key: key + "_temperature", name: "\(place) temperature",
                stateTopic: topic)
            temperature.valueTemplate = "{{ value_json.temperature }}"
            temperature.deviceClass = "temperature"
            temperature.measurement.unit = "°C"
            temperature.measurement.displayPrecision = 1
            temperature.measurement.stateClass = "measurement"
            temperature.diagnostic = true
            temperature.availability = [gatewayOnline]
            temperature.expireAfter = expire
            out.append(temperature)

            var low = HomeAssistantEntity(
                .binarySensor, device: device, node: node, key: key + "_low_battery", name: "\(place) low battery",
                stateTopic: topic)
            low.valueTemplate =
                "{% if value_json.low_battery is none %}None{% elif value_json.low_battery %}ON{% else %}OFF{% endif %}"
            low.deviceClass = "problem"
            low.diagnostic = true
            low.availability = [gatewayOnline]
            low.expireAfter = expire
            out.append(low)
        }
        return out
    }
}
