import BeaconCore
import BeaconWire
import Vocabulary

/// One Home Assistant entity as an MQTT discovery config (HA docs, "MQTT Discovery", and the page of
/// each platform). Every publisher (gateway, locator, and later telemetry or IRK devices) describes
/// its entities with this and lets `HomeAssistantEntity.message`/`removal` spell the retained config.
///
/// MQTT entities always use HA's entity naming (`has_entity_name`): the friendly name is the
/// device's name followed by `name`, and a nil `name` makes the entity the device's main one
/// (`device_tracker.keys`). `default_entity_id` asks for the same id HA would build from those
/// names (HA ≥ 2025.10; older releases drop the key and build that id themselves), so the ids are
/// the same on every release; the deprecated `object_id` is not sent.
package struct HomeAssistantEntity {
    package enum Component: String, Sendable, CaseIterable {
        case deviceTracker = "device_tracker"
        case binarySensor = "binary_sensor"
        case sensor, event
    }

    /// One entry of `availability`; with several, all must say available (`availability_mode: all`).
    package struct Availability: Sendable, Equatable {
        package var topic: String
        package var available: String
        package var notAvailable: String
        package init(
            topic: String, available: String = Vocabulary.Availability.online.rawValue,
            notAvailable: String = Vocabulary.Availability.offline.rawValue
        ) {
            self.topic = topic
            self.available = available
            self.notAvailable = notAvailable
        }
    }

    package var component: Component
    package var device: HomeAssistantDevice
    /// The discovery topic's node level: the publisher (`beacon2mqtt_<gw>`, `beacon2mqtt_locator`).
    package var node: String
    /// Unique within the node and component; the topic's object level and the end of `unique_id`.
    package var key: String
    /// Nil: the device's main entity, named like the device.
    package var name: String?
    package var stateTopic: String
    package var valueTemplate: String? = nil
    package var availability: [Availability] = []
    package var enabledByDefault = true
    package var diagnostic = false
    package var icon: String? = nil
    package var deviceClass: String? = nil
    /// A sensor's unit, state class and display precision.
    package var measurement = HomeAssistantMeasurement()
    /// Seconds after the last message that a sensor goes unavailable; HA also restores the last
    /// value across its own restart only for sensors that set it.
    package var expireAfter: Int? = nil
    /// Platform keys (`payload_home`, `event_types`, `options` …), written after the common ones.
    package var fields: (inout JSONWriter) -> Void = { _ in }

    package init(
        _ component: Component, device: HomeAssistantDevice, node: String, key: String, name: String?,
        stateTopic: String
    ) {
        self.component = component
        self.device = device
        self.node = node
        self.key = key
        self.name = name
        self.stateTopic = stateTopic
    }

    /// An event entity's `value_template` (HA's MQTT event takes a JSON object with `event_type`;
    /// our event payloads name it `event`): the payload's `attributes` go along as the event's
    /// attributes, so an automation triggered by it reads them without a second lookup. Only fields
    /// that stay the same between events of one kind on one entity, or take few values, belong here:
    /// HA stores each distinct set of attributes once.
    package static func eventTemplate(attributes: [String]) -> String {
        let pairs = ["'event_type': value_json.event"] + attributes.map { "'\($0)': value_json.\($0)" }
        return "{{ {" + pairs.joined(separator: ", ") + "} | tojson }}"
    }

    /// `unique_id`: stable across renames, so HA keeps the entity's settings and history.
    package var uniqueID: String { "\(node)_\(key)" }

    /// The id HA gives the entity: `<component>.<slug of device name and entity name>`; nil when
    /// the names are not ASCII (HA transliterates them itself).
    package var defaultEntityID: String? {
        HomeAssistantDevice.slug([device.name, name].compactMap { $0 }.joined(separator: " "))
            .map { "\(component.rawValue).\($0)" }
    }

    /// `<prefix>/<component>/<node>/<key>/config`.
    package func topic(prefix: String) -> String {
        TopicTree.homeAssistantConfig(prefix: prefix, component: component.rawValue, node: node, object: key)
    }

    /// The retained config.
    package func message(prefix: String, qos: Int, softwareVersion: String) -> OutboundMessage {
        OutboundMessage(
            topic: topic(prefix: prefix), payload: .json(payload(qos: qos, softwareVersion: softwareVersion)), qos: qos,
            retain: true, kind: .discovery)
    }

    /// The empty retained message that removes the entity from HA.
    package func removal(prefix: String, qos: Int) -> OutboundMessage {
        OutboundMessage(topic: topic(prefix: prefix), payload: .text(""), qos: qos, retain: true, kind: .discovery)
    }

    func payload(qos: Int, softwareVersion: String) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("name", name)
        w.field("unique_id", uniqueID)
        if let id = defaultEntityID { w.field("default_entity_id", id) }
        w.field("state_topic", stateTopic)
        if let valueTemplate { w.field("value_template", valueTemplate) }
        fields(&w)
        if let deviceClass { w.field("device_class", deviceClass) }
        if let stateClass = measurement.stateClass { w.field("state_class", stateClass) }
        if let unit = measurement.unit { w.field("unit_of_measurement", unit) }
        if let precision = measurement.displayPrecision { w.field("suggested_display_precision", precision) }
        if let icon { w.field("icon", icon) }
        if diagnostic { w.field("entity_category", "diagnostic") }
        if !enabledByDefault { w.field("enabled_by_default", false) }
        if let expireAfter { w.field("expire_after", expireAfter) }
        if !availability.isEmpty {
            w.key("availability")
            w.beginArray()
            for a in availability {
                w.beginObject()
                w.field("topic", a.topic)
                w.field("payload_available", a.available)
                w.field("payload_not_available", a.notAvailable)
                w.endObject()
            }
            w.endArray()
            if availability.count > 1 { w.field("availability_mode", "all") }
        }
        w.field("qos", qos)
        device.write(&w)
        w.key("origin")
        w.beginObject()
        w.field("name", "beacon2mqtt")
        w.field("sw_version", softwareVersion)
        w.field("support_url", "https://github.com/beacon2mqtt/beacon2mqtt")
        w.endObject()
        w.endObject()
        return w.text
    }
}
