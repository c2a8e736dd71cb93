import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// Home Assistant MQTT discovery published by a locator (`locate`, or the one `run` starts with
/// `locator.enabled`): for each configured beacon, on the beacon's device,
/// - the beacon's main entity, a `device_tracker` whose state is the room (`device_tracker.keys`),
/// - `Room` and `Floor` sensors (`sensor.keys_room`, `sensor.keys_floor`),
/// - a `Location change` event (`location` or `not_home`, with the rooms, floors and gateways).
///
/// All read the locator's retained `<base>/<beacon>/room` and `location` and its `<base>/<beacon>/event`, which
/// change only when the locator's hysteresis moves the beacon, so each move is one recorder row per
/// entity. Every locator publishes the same configs (same `unique_id`s): they agree on locations.
/// The locator is a device too (its connectivity), published first, so it exists before the beacons
/// name it as `via_device`.
package struct HomeAssistantLocatorDiscovery: HomeAssistantAnnouncer {
    package let settings: HomeAssistantSettings
    package let configuration: Configuration
    let topics: TopicTree
    package let softwareVersion: String

    package init(configuration: Configuration, softwareVersion: String) {
        self.settings = configuration.homeAssistant
        self.configuration = configuration
        self.topics = TopicTree(configuration)
        self.softwareVersion = softwareVersion
    }

    /// The node shared by every locator's beacon configs.
    static let node = "beacon2mqtt_locator"

    /// The tracker's attributes from the location: its confidence and likely rooms (`rooms`, the
    /// belief engine's; none from the nearest engine, none while away), its floor, and with a site
    /// plan its position `x`, `y` (null without one). The location changes only with the room, the
    /// confidence band or a move beyond `locator.position_deadband`, so they do too.
    package static let trackerAttributes =
        "{{ {'confidence': value_json.confidence, 'rooms': value_json.rooms | default([], true), "
        + "'floor': value_json.floor, 'x': value_json.x | default(none), 'y': value_json.y | default(none)} | tojson }}"

    package func entities() -> [HomeAssistantEntity] {
        let locator = HomeAssistantDevice.locator(configuration, softwareVersion: softwareVersion)
        let online = HomeAssistantEntity.Availability(topic: topics.locatorStatus)
        var connectivity = HomeAssistantEntity(
            .binarySensor, device: locator, node: locator.identifier, key: "connectivity", name: "Connectivity",
            stateTopic: topics.locatorStatus)
        connectivity.deviceClass = "connectivity"
        connectivity.diagnostic = true
        connectivity.valueTemplate = "{{ 'OFF' if value == '\(Availability.offline.rawValue)' else 'ON' }}"
        var out = [connectivity]
        // A locator names itself as the beacons' via_device unless told not to (a second locator).
        let via = (settings.viaDevice ?? true) ? locator.identifier : nil
        // A shard's locator announces its own beacons only, so each beacon's availability is the
        // status of the locator that decides it.
        let shard = configuration.locator.shard
        for beacon in configuration.beaconsAndDevices where shard?.owns(beacon.identity) ?? true {
            let id = beacon.identity
            let device = HomeAssistantDevice.beacon(id, name: beacon.name, via: via)
            let key = HomeAssistantDevice.key(id)
            let location = topics.location(id)
            func entity(
                _ c: HomeAssistantEntity.Component, _ suffix: String, _ name: String?, _ topic: String
            )
                -> HomeAssistantEntity
            {
                var e = HomeAssistantEntity(
                    c, device: device, node: Self.node, key: key + suffix, name: name, stateTopic: topic)
                e.availability = [online]
                return e
            }
            // HA's MQTT device tracker: a payload other than home/not_home is the location's name,
            // here the room, and `unknown` is HA's own unknown state. Its attributes are the
            // location's confidence and likely rooms, which the locator publishes only when the room
            // or the confidence band changes (docs/locator.md), so they add few recorder rows.
            var tracker = entity(.deviceTracker, "_room_tracker", nil, topics.locatorRoom(id))
            tracker.fields = { w in
                w.field("source_type", "bluetooth_le")
                w.field("json_attributes_topic", location)
                w.field("json_attributes_template", Self.trackerAttributes)
            }
            var room = entity(.sensor, "_room", "Room", location)
            room.valueTemplate =
                "{{ 'unknown' if value_json.state == 'unknown' else "
                + "(value_json.room or value_json.gateway) if value_json.state == 'home' else 'away' }}"
            room.icon = "mdi:door"
            var floor = entity(.sensor, "_floor", "Floor", location)
            floor.valueTemplate = "{{ (value_json.floor or 'unknown') if value_json.state != 'not_home' else 'away' }}"
            floor.icon = "mdi:stairs"
            var change = entity(.event, "_location_change", "Location change", topics.locatorEvent(id))
            change.icon = "mdi:map-marker-path"
            // Where the beacon is now and was before: a site's few rooms make few distinct sets.
            change.valueTemplate = HomeAssistantEntity.eventTemplate(
                attributes: ["room", "floor", "gateway", "previous_room", "previous_floor", "previous_gateway"])
            change.fields = { w in
                w.key("event_types")
                w.beginArray()
                w.string("location")
                w.string("not_home")
                w.endArray()
            }
            out += [tracker, room, floor, change]
        }
        return out
    }
}
