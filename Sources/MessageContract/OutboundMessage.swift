/// One MQTT message the agent wants published. The pure core produces these; a transport publishes
/// them (libmosquitto) or prints them (`replay --output jsonl`).
package struct OutboundMessage: Sendable, Equatable {
    package enum Payload: Sendable, Equatable {
        /// A JSON document, embedded as JSON in jsonl output.
        case json(String)
        /// Plain text such as `inside`, embedded as a JSON string in jsonl output.
        case text(String)

        package var text: String {
            switch self {
            case .json(let s), .text(let s): return s
            }
        }
    }

    /// What the message is, so an outbox can treat events and states as must-deliver and coalesce
    /// proximity per beacon.
    package enum Kind: String, Sendable, Equatable {
        case state, event, proximity, ranging, status, stats, location, discovery, telemetry
    }

    package var topic: String
    package var payload: Payload
    package var qos: Int
    package var retain: Bool
    package var kind: Kind

    package init(topic: String, payload: Payload, qos: Int, retain: Bool, kind: Kind) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.kind = kind
    }
}
