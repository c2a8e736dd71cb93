import BeaconCore
import BeaconWire

/// Home Assistant MQTT discovery for the configured beacons and regions (HA docs, "MQTT Discovery").
///
/// One HA device per gateway; under it, for each configured beacon (`beacons:`) and each region:
/// a `device_tracker` (`source_type: bluetooth_le`, home/not_home from `inside`/`outside`), a distance
/// `sensor` (m, `state_class: measurement`), a proximity `sensor` (enum) and an `event` entity for
/// enter/exit. Every entity points at the topics of the message contract (README, “Messages, monitoring and ranging”),
/// so discovery adds no new data topics, and its `availability` is the gateway's retained status.
/// Configs are retained and are published again when HA announces itself on `<prefix>/status`.
package struct HomeAssistantDiscovery: Sendable {
    package let settings: HomeAssistantSettings
    private let composer: MessageComposer
    private let configuration: Configuration
    private let softwareVersion: String

    package init(configuration: Configuration, settings: HomeAssistantSettings, softwareVersion: String) {
        self.settings = settings
        self.configuration = configuration
        self.composer = MessageComposer(configuration)
        self.softwareVersion = softwareVersion
    }

    /// Where HA publishes its birth (`online`) and will (`offline`) messages; subscribe to it.
    package var birthTopic: String { TopicTree.homeAssistantBirth(prefix: settings.prefix) }

    /// `<base>/gateways/<gw>/status`, retained `online` / `offline` / `degraded`.
    package var availabilityTopic: String { composer.topics.gatewayStatus }

    /// Every discovery config, retained; empty when `homeassistant.discovery` is off.
    package func messages() -> [OutboundMessage] {
        guard settings.discovery else { return [] }
        return entities().map { entity in
            OutboundMessage(
                topic: topic(entity), payload: .json(payload(entity)), qos: configuration.mqtt.qos, retain: true,
                kind: .discovery)
        }
    }

    /// HA restarted (birth payload `online`) and forgot non-retained state: publish everything again.
    package func messages(onBirth payload: String) -> [OutboundMessage] {
        payload == "online" ? messages() : []
    }

    /// Empty retained messages on the same topics: removes the entities from HA, e.g. when
    /// discovery is turned off or a beacon or region is removed on reload.
    package func removals() -> [OutboundMessage] {
        entities().map {
            OutboundMessage(
                topic: topic($0), payload: .text(""), qos: configuration.mqtt.qos, retain: true, kind: .discovery)
        }
    }

    // MARK: Entities

    private enum Component: String {
        case deviceTracker = "device_tracker"
        case sensor, event
    }

    private struct Entity {
        var component: Component
        /// Unique within the gateway; also the discovery topic's object id.
        var objectID: String
        var name: String
        var fields: (inout JSONWriter) -> Void
    }

    private func entities() -> [Entity] {
        var out: [Entity] = []
        for beacon in configuration.beacons {
            let id = beacon.identity
            let label = beacon.name ?? Self.label(id)
            let object = Self.objectID(id)
            if configuration.monitoring.perBeacon {
                out.append(
                    tracker(
                        object, label, state: composer.topics.beacon(id, .state), composer.topics.beacon(id, .attributes))
                )
                out.append(event(object, label, topic: composer.topics.beacon(id, .event)))
            }
            let proximity = composer.topics.beacon(id, .proximity)
            out.append(
                distance(
                    object, label, topic: proximity,
                    template: "{{ value_json.accuracy if value_json.accuracy >= 0 else none }}"))
            out.append(proximityClass(object, label, topic: proximity, template: "{{ value_json.proximity }}"))
        }
        for region in configuration.regions {
            let object = "region_" + Self.sanitized(region.name)
            let label = region.name
            out.append(
                tracker(
                    object, label, state: composer.topics.region(region.name, .state),
                    composer.topics.region(region.name, .attributes)))
            out.append(event(object, label, topic: composer.topics.region(region.name, .event)))
            if configuration.ranging.publish.rangingList {
                // The ranging list is nearest first and is published once as [] when the region empties.
                let ranging = composer.topics.region(region.name, .ranging)
                out.append(
                    distance(
                        object, "\(label) nearest", topic: ranging,
                        template:
                            "{{ value_json[0].accuracy if value_json | length > 0 and value_json[0].accuracy >= 0 else none }}"
                    ))
                out.append(
                    proximityClass(
                        object, "\(label) nearest", topic: ranging,
                        template: "{{ value_json[0].proximity if value_json | length > 0 else 'unknown' }}"))
            }
        }
        return out
    }

    private func tracker(_ object: String, _ label: String, state: String, _ attributes: String) -> Entity {
        Entity(component: .deviceTracker, objectID: object, name: label) { w in
            w.field("state_topic", state)
            w.field("payload_home", RegionState.inside.rawValue)
            w.field("payload_not_home", RegionState.outside.rawValue)
            w.field("source_type", "bluetooth_le")
            w.field("json_attributes_topic", attributes)
        }
    }

    private func event(_ object: String, _ label: String, topic: String) -> Entity {
        Entity(component: .event, objectID: object + "_event", name: "\(label) event") { w in
            w.field("state_topic", topic)
            w.key("event_types")
            w.beginArray()
            w.string("enter")
            w.string("exit")
            w.endArray()
            // HA's event entity wants {"event_type": …}; our payload says "event" (MQTT Event docs, value_template).
            w.field("value_template", "{\"event_type\":\"{{ value_json.event }}\"}")
            w.field("json_attributes_topic", topic)
        }
    }

    private func distance(_ object: String, _ label: String, topic: String, template: String) -> Entity {
        Entity(component: .sensor, objectID: object + "_distance", name: "\(label) distance") { w in
            w.field("state_topic", topic)
            w.field("value_template", template)
            w.field("device_class", "distance")
            w.field("unit_of_measurement", "m")
            w.field("state_class", "measurement")
            w.field("suggested_display_precision", 2)
        }
    }

    private func proximityClass(_ object: String, _ label: String, topic: String, template: String) -> Entity {
        Entity(component: .sensor, objectID: object + "_proximity", name: "\(label) proximity") { w in
            w.field("state_topic", topic)
            w.field("value_template", template)
            w.field("device_class", "enum")
            w.key("options")
            w.beginArray()
            for p in Proximity.allCases { w.string(p.rawValue) }
            w.endArray()
        }
    }

    // MARK: Payloads

    /// HA node id: the gateway id restricted to `[a-zA-Z0-9_-]` (discovery topic format).
    private var nodeID: String { Self.sanitized(configuration.gateway.id) }

    /// `<prefix>/<component>/<node_id>/<object_id>/config`.
    private func topic(_ e: Entity) -> String {
        TopicTree.homeAssistantConfig(
            prefix: settings.prefix, component: e.component.rawValue, node: nodeID, object: e.objectID)
    }

    private func payload(_ e: Entity) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("name", e.name)
        w.field("unique_id", "beacon2mqtt_\(nodeID)_\(e.objectID)_\(e.component.rawValue)")
        w.field("object_id", "beacon2mqtt_\(nodeID)_\(e.objectID)")
        e.fields(&w)
        w.key("availability")
        w.beginArray()
        w.beginObject()
        w.field("topic", availabilityTopic)
        w.field("payload_available", "online")
        w.field("payload_not_available", "offline")
        w.endObject()
        w.endArray()
        w.field("qos", configuration.mqtt.qos)
        w.key("device")
        w.beginObject()
        w.key("identifiers")
        w.beginArray()
        w.string("beacon2mqtt_\(nodeID)")
        w.endArray()
        w.field("name", "beacon2mqtt \(configuration.gateway.id)")
        w.field("manufacturer", "beacon2mqtt")
        w.field("model", "BLE beacon gateway")
        w.field("sw_version", softwareVersion)
        if let room = configuration.gateway.room { w.field("suggested_area", room) }
        w.endObject()
        w.key("origin")
        w.beginObject()
        w.field("name", "beacon2mqtt")
        w.field("sw_version", softwareVersion)
        w.endObject()
        w.endObject()
        return w.text
    }

    /// iBeacon/AltBeacon `<uuid without dashes>_<major>_<minor>`, Eddystone `<namespace>_<instance>`.
    static func objectID(_ id: BeaconIdentity) -> String {
        switch id.scheme {
        case .uuid: return "\(id.id.uuidString.filter { $0 != "-" })_\(id.major)_\(id.minor)"
        case .eddystone: return "\(id.eddystoneNamespace)_\(id.eddystoneInstance)"
        }
    }

    /// A readable default name for a beacon without a configured one.
    static func label(_ id: BeaconIdentity) -> String {
        switch id.scheme {
        case .uuid: return "Beacon \(id.id.uuidString.prefix(8)) \(id.major).\(id.minor)"
        case .eddystone: return "Eddystone \(id.eddystoneInstance)"
        }
    }

    /// Characters outside `[a-zA-Z0-9_-]` become `_`.
    static func sanitized(_ text: String) -> String {
        String(
            text.unicodeScalars.map { s -> Character in
                switch s {
                case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return Character(s)
                default: return "_"
                }
            })
    }
}
