import BeaconCore
import BeaconWire
import Settings

/// The feed Home Assistant's built-in `mqtt_room` sensor reads (HA docs, "MQTT Room Presence"):
/// `<room_topic>/<room>` with `{"id","name","distance"}`. The sensor subscribes to
/// `<state_topic>/+`, takes the room from the last topic level, and tracks the device whose
/// `device_id` equals `id`, so the id must be stable and printable: `<uuid>-<major>-<minor>` for
/// iBeacon/AltBeacon (room-assistant's form) and `<namespace>-<instance>` for Eddystone-UID.
package struct HomeAssistantRoomFeed: Sendable {
    /// `<room_topic>/<room>`; the room is `gateway.room`, else the gateway id.
    package let topic: String

    /// Nil when `homeassistant.room_topic` is unset (the feed is off).
    package init?(configuration: Configuration, settings: HomeAssistantSettings) {
        guard let roomTopic = settings.roomTopic, !roomTopic.isEmpty else { return nil }
        topic = TopicTree.roomFeed(roomTopic, room: configuration.gateway.room ?? configuration.gateway.id)
    }

    /// The `device_id` to put in HA's `mqtt_room` sensor for this beacon.
    package static func deviceID(_ id: BeaconIdentity) -> String {
        switch id.scheme {
        case .uuid: return "\(id.id.uuidString)-\(id.major)-\(id.minor)"
        case .eddystone: return "\(id.eddystoneNamespace)-\(id.eddystoneInstance)"
        // A device's identity is a hash of its name; the name goes in the payload's "name".
        case .device: return "device-" + Hex.string(id.id.bytes)
        }
    }

    /// One distance report (QoS 0, not retained, like proximity); nil when the distance is unknown
    /// (accuracy −1), since `mqtt_room` would treat any number as a real distance.
    package func message(identity: BeaconIdentity, name: String?, distance: Double) -> OutboundMessage? {
        guard distance >= 0 else { return nil }
        return OutboundMessage(
            topic: topic, payload: .json(Self.payload(identity: identity, name: name, distance: distance)), qos: 0,
            retain: false, kind: .location)
    }

    /// `{"id","name","distance"}` as `mqtt_room` reads it; the name falls back to the id. The
    /// locator's feed uses the same payload.
    static func payload(identity: BeaconIdentity, name: String?, distance: Double) -> String {
        // A configured device (`devices:`) is fed under its name, which is what people type in HA.
        let id = identity.scheme == .device ? name ?? deviceID(identity) : deviceID(identity)
        var w = JSONWriter()
        w.beginObject()
        w.field("id", id)
        w.field("name", name ?? id)
        w.field("distance", distance, decimals: 2)
        w.endObject()
        return w.text
    }
}
