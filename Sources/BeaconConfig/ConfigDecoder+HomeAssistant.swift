import BeaconCore
import Settings

extension ConfigDecoder {
    /// `homeassistant:`: MQTT discovery and the `mqtt_room` feed (docs/home-assistant.md).
    mutating func homeAssistant(_ value: ConfigValue, into s: inout HomeAssistantSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("discovery", into: &s.discovery) { v throws(ConfigError) in try v.bool() }
        try m.read("prefix", into: &s.prefix) { v throws(ConfigError) in try Self.topicPrefix(v) }
        try m.readOptional("room_topic", into: &s.roomTopic) { v throws(ConfigError) in try Self.topicPrefix(v) }
        try m.readOptional("gateway_entities", into: &s.gatewayEntities) { v throws(ConfigError) in try v.bool() }
        try m.readOptional("via_device", into: &s.viaDevice) { v throws(ConfigError) in try v.bool() }
    }

    /// One or more topic levels (`homeassistant`, `home/rooms`).
    static func topicPrefix(_ v: ConfigValue) throws(ConfigError) -> String {
        let text = try v.nonEmptyText()
        if let problem = TopicLevel.prefixProblem(text) { throw v.error(problem) }
        return text
    }
}
