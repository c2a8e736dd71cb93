/// `homeassistant:` in the configuration: opt-in Home Assistant MQTT discovery and the
/// `mqtt_room` feed. Everything is off by default; the message contract is unchanged either way.
package struct HomeAssistantSettings: Sendable, Equatable {
    /// `homeassistant.discovery`: publish retained discovery configs (and again on HA's birth message).
    package var discovery: Bool = false
    /// `homeassistant.prefix`: HA's discovery prefix (HA's own default is `homeassistant`).
    package var prefix: String = "homeassistant"
    /// `homeassistant.room_topic`: when set, distances also go to `<room_topic>/<room>` as
    /// `{"id","name","distance"}` for HA's built-in `mqtt_room` sensor (its default is `room_presence`).
    package var roomTopic: String? = nil
    /// `homeassistant.gateway_entities`: the gateway's own tracker, proximity, distance and event
    /// on each beacon's device. Nil (the default): on, unless `locator.enabled` (the locator's room
    /// tracker then says where the beacon is). Gateways of a fleet with a separate `locate` set it false.
    package var gatewayEntities: Bool? = nil
    /// `homeassistant.via_device`: name this gateway (or locator) as the `via_device` of the
    /// beacons' and devices' HA devices. HA keeps whichever it was told last, so exactly one
    /// publisher per beacon should say so. Nil (the default): a locator does; a gateway does while
    /// its `gateway_entities` are on (one gateway and no locator).
    package var viaDevice: Bool? = nil

    package init(
        discovery: Bool = false, prefix: String = "homeassistant", roomTopic: String? = nil,
        gatewayEntities: Bool? = nil, viaDevice: Bool? = nil
    ) {
        self.discovery = discovery
        self.prefix = prefix
        self.roomTopic = roomTopic
        self.gatewayEntities = gatewayEntities
        self.viaDevice = viaDevice
    }
}
