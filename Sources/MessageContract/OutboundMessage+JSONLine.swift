import BeaconCore
import BeaconWire

extension OutboundMessage {
    /// The message as one line of `replay --output jsonl`:
    /// `{"topic":…,"payload":…,"qos":…,"retain":…}`, with a JSON payload embedded as JSON and a
    /// plain payload as a string. An empty retained payload (which clears a retained topic) is `""`.
    package var jsonLine: String {
        var w = JSONWriter()
        w.beginObject()
        w.field("topic", topic)
        w.key("payload")
        switch payload {
        case .json(let json): w.raw(json)
        case .text(let text): w.string(text)
        }
        w.field("qos", qos)
        w.field("retain", retain)
        w.endObject()
        return w.text
    }
}
