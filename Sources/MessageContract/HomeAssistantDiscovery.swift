import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// Home Assistant MQTT discovery published by a gateway (docs/home-assistant.md).
///
/// - The gateway is a device with diagnostic entities (`HomeAssistantDiscovery+Gateway`), published
///   first, so it exists before any beacon config names it as `via_device`.
/// - Each configured beacon (`beacons:`) and device (`devices:`, a phone, watch or tag) is a device of
///   its own; with `gateway_entities` on, the
///   gateway adds to it a tracker, proximity, distance and enter/exit event named after the
///   gateway's room (`device_tracker.keys_hall`). The locator adds the room tracker
///   (`HomeAssistantLocatorDiscovery`).
/// - Each region is a tracker and an event on the gateway's device.
///
/// Every entity reads the topics of the message contract, so discovery adds no data topics; all
/// are unavailable while the gateway is offline, and a beacon's distance and proximity also while
/// the beacon is outside. Configs are retained and are published again when HA announces itself on
/// `<prefix>/status`.
package struct HomeAssistantDiscovery: HomeAssistantAnnouncer {
    package let settings: HomeAssistantSettings
    package let configuration: Configuration
    let topics: TopicTree
    package let softwareVersion: String

    package init(configuration: Configuration, settings: HomeAssistantSettings, softwareVersion: String) {
        self.settings = settings
        self.configuration = configuration
        self.topics = TopicTree(configuration)
        self.softwareVersion = softwareVersion
    }

    /// `<base>/gateways/<gw>/status`, retained `online` / `offline` / `degraded`.
    package var availabilityTopic: String { topics.gatewayStatus }

    /// Releases before per-beacon devices put every config under `<prefix>/<component>/<gw>/…`, one
    /// device per gateway; clearing those topics on connect removes the old entities after an upgrade.
    package func legacyRemovals() -> [OutboundMessage] {
        guard settings.discovery else { return [] }
        let node = HomeAssistantDevice.sanitized(configuration.gateway.id)
        var objects: [(HomeAssistantEntity.Component, String)] = []
        let subjects =
            configuration.beacons.map { HomeAssistantDevice.key($0.identity) }
            + configuration.regions.map { "region_" + HomeAssistantDevice.sanitized($0.name) }
        for s in subjects {
            objects += [
                (.deviceTracker, s), (.event, s + "_event"), (.sensor, s + "_distance"), (.sensor, s + "_proximity"),
            ]
        }
        return objects.map { component, object in
            OutboundMessage(
                topic: TopicTree.homeAssistantConfig(
                    prefix: settings.prefix, component: component.rawValue, node: node, object: object),
                payload: .text(""), qos: configuration.mqtt.qos, retain: true, kind: .discovery)
        }
    }

    /// Whether the gateway adds its own tracker and sensors to each beacon: `gateway_entities`,
    /// by default on unless this process also runs the locator (whose room tracker says more).
    package var gatewayEntities: Bool { settings.gatewayEntities ?? !configuration.locator.enabled }

    /// The gateway's diagnostics first (the beacons name it as via_device), then beacons and regions.
    package func entities() -> [HomeAssistantEntity] {
        gatewayDiagnostics() + (gatewayEntities ? beaconEntities() : []) + telemetryEntities() + regionEntities()
    }

    // MARK: Beacons

    /// The discovery node of everything this gateway publishes.
    var node: String { "beacon2mqtt_" + HomeAssistantDevice.sanitized(configuration.gateway.id) }

    /// Where this gateway is, for entity names: its room, else its id.
    var place: String { configuration.gateway.room ?? configuration.gateway.id }

    var gatewayDevice: HomeAssistantDevice { .gateway(configuration, softwareVersion: softwareVersion) }

    /// The `via_device` this gateway writes into the beacons' device blocks: itself with
    /// `homeassistant.via_device` (default: while its `gateway_entities` are on), else none; never
    /// beside its own locator (`locator.enabled`), which names itself. HA keeps the last one it was
    /// told and a config without one leaves it as it is, so with one publisher naming it the link
    /// never flips (docs/home-assistant.md, "Devices").
    var beaconVia: String? {
        guard !configuration.locator.enabled, settings.viaDevice ?? gatewayEntities else { return nil }
        return gatewayDevice.identifier
    }

    var gatewayOnline: HomeAssistantEntity.Availability { .init(topic: availabilityTopic) }

    private func beaconEntities() -> [HomeAssistantEntity] {
        var out: [HomeAssistantEntity] = []
        for beacon in configuration.beaconsAndDevices {
            let id = beacon.identity
            // Devices are always monitored one by one; beacons with monitoring.per_beacon.
            let perBeacon = configuration.monitoring.perBeacon || id.scheme == .device
            let device = HomeAssistantDevice.beacon(id, name: beacon.name, via: beaconVia)
            let key = HomeAssistantDevice.key(id)
            // Distance and proximity mean nothing once the beacon left: unavailable while `outside`.
            var present = [gatewayOnline]
            if perBeacon {
                let state = topics.beacon(id, .state)
                present.append(
                    .init(
                        topic: state, available: RegionState.inside.rawValue, notAvailable: RegionState.outside.rawValue
                    ))
                out.append(tracker(device, key: key + "_tracker", name: place, state: state))
                out.append(
                    event(device, key: key + "_event", name: "\(place) enter/exit", topic: topics.beacon(id, .event)))
            }
            let proximity = topics.beacon(id, .proximity)
            out.append(
                proximitySensor(
                    device, key: key + "_proximity", name: "\(place) proximity", topic: proximity,
                    template: "{{ value_json.proximity }}", availability: present))
            out.append(
                distanceSensor(
                    device, key: key + "_distance", name: "\(place) distance", topic: proximity,
                    template: Self.roundedDistance("value_json.accuracy"), availability: present))
        }
        return out
    }

    // MARK: Regions

    private func regionEntities() -> [HomeAssistantEntity] {
        var out: [HomeAssistantEntity] = []
        let device = gatewayDevice
        for region in configuration.regions {
            let key = "region_" + HomeAssistantDevice.sanitized(region.name)
            let state = topics.region(region.name, .state)
            out.append(tracker(device, key: key + "_tracker", name: region.name, state: state))
            out.append(
                event(
                    device, key: key + "_event", name: "\(region.name) enter/exit",
                    topic: topics.region(region.name, .event)))
            guard configuration.ranging.publish.rangingList else { continue }
            // The ranging list is nearest first and is published once as [] when the region empties.
            let ranging = topics.region(region.name, .ranging)
            let present = [
                gatewayOnline,
                .init(topic: state, available: RegionState.inside.rawValue, notAvailable: RegionState.outside.rawValue),
            ]
            var proximity = proximitySensor(
                device, key: key + "_nearest_proximity", name: "\(region.name) nearest proximity", topic: ranging,
                template: "{{ value_json[0].proximity if value_json | length > 0 else 'unknown' }}",
                availability: present)
            proximity.enabledByDefault = false
            out.append(proximity)
            out.append(
                distanceSensor(
                    device, key: key + "_nearest_distance", name: "\(region.name) nearest distance", topic: ranging,
                    template: Self.roundedDistance("value_json[0].accuracy", guard: "value_json | length > 0 and "),
                    availability: present))
        }
        return out
    }

    // MARK: Entity kinds

    /// `inside`/`outside` → home/not_home. No attributes: each transition is one recorder row.
    private func tracker(_ device: HomeAssistantDevice, key: String, name: String, state: String) -> HomeAssistantEntity
    {
        var e = HomeAssistantEntity(.deviceTracker, device: device, node: node, key: key, name: name, stateTopic: state)
        e.availability = [gatewayOnline]
        e.fields = { w in
            w.field("payload_home", RegionState.inside.rawValue)
            w.field("payload_not_home", RegionState.outside.rawValue)
            w.field("source_type", "bluetooth_le")
        }
        return e
    }

    /// Fires `enter` or `exit`, with the gateway, its room and floor as attributes: the same on every
    /// event of this entity, so they add no recorder rows (the rest of the payload, RSSI, address and
    /// times, would make every event's attributes new).
    private func event(_ device: HomeAssistantDevice, key: String, name: String, topic: String) -> HomeAssistantEntity {
        var e = HomeAssistantEntity(.event, device: device, node: node, key: key, name: name, stateTopic: topic)
        e.availability = [gatewayOnline]
        e.icon = "mdi:map-marker-radius"
        e.valueTemplate = HomeAssistantEntity.eventTemplate(attributes: ["room", "floor", "gateway"])
        e.fields = { w in
            w.key("event_types")
            w.beginArray()
            w.string("enter")
            w.string("exit")
            w.endArray()
        }
        return e
    }

    private func proximitySensor(
        _ device: HomeAssistantDevice, key: String, name: String, topic: String, template: String,
        availability: [HomeAssistantEntity.Availability]
    ) -> HomeAssistantEntity {
        var e = rangedSensor(device, key: key, name: name, topic: topic, template: template, availability: availability)
        e.deviceClass = "enum"
        e.icon = "mdi:signal-distance-variant"
        e.fields = { w in
            w.key("options")
            w.beginArray()
            for p in Proximity.allCases { w.string(p.rawValue) }
            w.endArray()
        }
        return e
    }

    /// Off by default: a distance changes with every ranging tick. Rounded to 0.5 m, HA's only
    /// deadband (an unchanged state writes no row); no `state_class`, hourly means of a moving
    /// beacon's distance tell nobody anything.
    private func distanceSensor(
        _ device: HomeAssistantDevice, key: String, name: String, topic: String, template: String,
        availability: [HomeAssistantEntity.Availability]
    ) -> HomeAssistantEntity {
        var e = rangedSensor(device, key: key, name: name, topic: topic, template: template, availability: availability)
        e.deviceClass = "distance"
        e.measurement.unit = "m"
        e.measurement.displayPrecision = 1
        e.enabledByDefault = false
        return e
    }

    /// A sensor on a proximity or ranging topic: present only while its subject is, expiring when silent.
    private func rangedSensor(
        _ device: HomeAssistantDevice, key: String, name: String, topic: String, template: String,
        availability: [HomeAssistantEntity.Availability]
    ) -> HomeAssistantEntity {
        var e = HomeAssistantEntity(.sensor, device: device, node: node, key: key, name: name, stateTopic: topic)
        e.valueTemplate = template
        e.availability = availability
        e.expireAfter = expireAfter
        return e
    }

    /// Two proximity heartbeats and a little: a beacon in range is refreshed at least every
    /// heartbeat, so only a silent one expires.
    private var expireAfter: Int? {
        let heartbeat = configuration.ranging.publish.heartbeat
        guard heartbeat > .zero else { return nil }
        return Int(heartbeat.microseconds / 1_000_000) * 2 + 5
    }

    /// `accuracy` rounded to 0.5 m, none when unknown (−1).
    static func roundedDistance(_ value: String, guard condition: String = "") -> String {
        "{{ ((\(value) * 2) | round / 2) if \(condition)\(value) >= 0 else none }}"
    }
}
