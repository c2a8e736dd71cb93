import BeaconCore

extension ConfigDecoder {
    /// `locator.foreign_sources`: other projects' receivers read as extra gateways (docs/locator.md,
    /// "Foreign receivers").
    static func foreignSources(_ value: ConfigValue) throws(ConfigError) -> [ForeignSource] {
        var sources: [ForeignSource] = []
        for item in try value.list() {
            let m = try item.mapping()
            var source = ForeignSource(format: try m.required("format").choice(ForeignSource.Format.self))
            try m.read("topic", into: &source.topic) { v throws(ConfigError) in try filter(v) }
            try m.read("availability", into: &source.availability) { v throws(ConfigError) in try filter(v) }
            if source.format == .openmqttgateway,
                !source.topic.split(separator: "/").contains(where: { $0 == "BTtoMQTT" || $0 == "+" || $0 == "#" })
            {
                throw m.error(
                    "topic", locatedAt: ["topic"],
                    "an openmqttgateway topic names its node before a BTtoMQTT level (home/+/BTtoMQTT/+)")
            }
            for entry in try m.required("nodes").list() {
                let n = try entry.mapping()
                let nodeValue = try n.required("node")
                let node = try topicLevel(nodeValue)
                guard source.nodes[node] == nil else {
                    throw nodeValue.error("node \(node) is listed twice in this source")
                }
                var mapped = ForeignSource.Node(gateway: node)
                try n.read("gateway", into: &mapped.gateway) { v throws(ConfigError) in try topicLevel(v) }
                try n.readOptional("floor", into: &mapped.floor) { v throws(ConfigError) in try v.nonEmptyText() }
                try n.readOptional("room", into: &mapped.room) { v throws(ConfigError) in try v.nonEmptyText() }
                try n.readOptional("position", into: &mapped.position) { v throws(ConfigError) in try position(v) }
                source.nodes[node] = mapped
            }
            sources.append(source)
        }
        return sources
    }

    /// An MQTT subscription filter.
    private static func filter(_ v: ConfigValue) throws(ConfigError) -> String {
        let text = try v.nonEmptyText()
        if let problem = TopicLevel.filterProblem(text) { throw v.error("\(problem) (it is an MQTT subscription)") }
        return text
    }
}
