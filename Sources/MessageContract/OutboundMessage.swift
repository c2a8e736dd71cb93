/// One MQTT message the agent wants published. The pure core produces these; a transport publishes
/// them (libmosquitto) or prints them (`replay --output jsonl`).
public struct OutboundMessage: Sendable, Equatable {
    public enum Payload: Sendable, Equatable {
        /// A JSON document, embedded as JSON in jsonl output.
        case json(String)
        /// Plain text such as `inside`, embedded as a JSON string in jsonl output.
        case text(String)

        public var text: String {
            switch self {
            case .json(let s), .text(let s): return s
            }
        }
    }

    /// What the message is, so an outbox can treat events and states as must-deliver and coalesce
    /// proximity per beacon.
    public enum Kind: String, Sendable, Equatable {
        case state, event, proximity, ranging, status, stats, location, discovery
    }

    public var topic: String
    public var payload: Payload
    public var qos: Int
    public var retain: Bool
    public var kind: Kind

    public init(topic: String, payload: Payload, qos: Int, retain: Bool, kind: Kind) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.kind = kind
    }
}
