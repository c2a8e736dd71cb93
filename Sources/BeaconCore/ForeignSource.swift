/// Another project's BLE receivers, read by the locator as extra gateways (`locator.foreign_sources`,
/// docs/locator.md, "Foreign receivers"): ESPresense nodes or OpenMQTTGateway / Theengs Gateway
/// instances on the same broker. Each of their nodes is mapped to a gateway id, floor and room, and
/// its readings then count as that gateway's.
package struct ForeignSource: Sendable, Equatable {
    /// Whose messages these are: the topic layout and payload the parser expects.
    package enum Format: String, Sendable, Equatable, CaseIterable {
        /// ESPresense: `espresense/devices/<device id>/<node>`, a JSON report per device (its own
        /// filtered `rssi`, `rssi@1m` and `distance`); `espresense/rooms/<node>/status` online/offline.
        case espresense
        /// OpenMQTTGateway and Theengs Gateway: `home/<node>/BTtoMQTT/<address>`, a decoded JSON per
        /// advertisement (`rssi`, `txpower`, `distance`, the decoder's iBeacon fields or the raw
        /// Eddystone service data); `home/<node>/LWT` online/offline.
        case openmqttgateway

        /// The topic its nodes publish readings on, with `+` for the node and the device.
        package var defaultTopic: String {
            switch self {
            case .espresense: "espresense/devices/+/+"
            case .openmqttgateway: "home/+/BTtoMQTT/+"
            }
        }

        /// Where its nodes say online / offline (retained, their MQTT will).
        package var defaultAvailability: String {
            switch self {
            case .espresense: "espresense/rooms/+/status"
            case .openmqttgateway: "home/+/LWT"
            }
        }
    }

    /// One foreign node as the locator counts it: the gateway id its readings go under (its
    /// `locator.rssi_offset` key), its floor and room, and where it stands (as `gateway.position`:
    /// hearing a gateway's advertisement, it is calibrated as a gateway is).
    package struct Node: Sendable, Equatable {
        package var gateway: String
        package var floor: String?
        package var room: String?
        package var position: SitePosition?

        package init(gateway: String, floor: String? = nil, room: String? = nil, position: SitePosition? = nil) {
            self.gateway = gateway
            self.floor = floor
            self.room = room
            self.position = position
        }
    }

    package var format: Format
    /// MQTT subscription for the readings (the format's layout, under any prefix).
    package var topic: String
    /// MQTT subscription for the nodes' availability; nil: none is read.
    package var availability: String?
    /// Node id (as the format's topic spells it) → where it is. Readings of other nodes are counted
    /// and ignored.
    package var nodes: [String: Node]

    package init(format: Format, topic: String? = nil, availability: String?? = nil, nodes: [String: Node] = [:]) {
        self.format = format
        self.topic = topic ?? format.defaultTopic
        self.availability = availability ?? format.defaultAvailability
        self.nodes = nodes
    }

    /// Where each of `sources`' placed nodes stands, by gateway id.
    package static func positions(_ sources: [ForeignSource]) -> [String: SitePosition] {
        var out: [String: SitePosition] = [:]
        for source in sources {
            for node in source.nodes.values { if let p = node.position { out[node.gateway] = p } }
        }
        return out
    }
}
