import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// The gateway's answers to configuration over MQTT: the effective configuration, retained on
/// `<base>/gateways/<gw>/config`, and why a layer was refused, on `<base>/gateways/<gw>/config/error`.
package enum ConfigurationReport {
    /// `document`: the effective configuration as JSON (layers, sources, secrets redacted).
    package static func effective(_ document: String, topics: TopicTree) -> OutboundMessage {
        OutboundMessage(topic: topics.gatewayConfig, payload: .json(document), qos: 1, retain: true, kind: .status)
    }

    /// `{"layer","source","diagnostics":["<source>:line:col: key: message", …],"time"}`, not retained:
    /// the running configuration is unchanged, so the error is news, not state.
    package static func error(
        layer: ConfigLayer, source: String, digest: String, diagnostics: [String], at time: Timestamp, topics: TopicTree
    ) -> OutboundMessage {
        var w = JSONWriter()
        w.beginObject()
        w.field("layer", layer.rawValue)
        w.field("source", source)
        w.field("digest", digest)
        w.key("diagnostics")
        w.beginArray()
        for d in diagnostics { w.string(d) }
        w.endArray()
        w.field("time", plain: time.appendRFC3339)
        w.endObject()
        return OutboundMessage(
            topic: topics.gatewayConfigError, payload: .json(w.text), qos: 1, retain: false, kind: .status)
    }
}
