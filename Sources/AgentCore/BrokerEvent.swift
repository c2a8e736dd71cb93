/// What the MQTT session reports to the agent core (the shell maps the client's events). Every
/// connection has a generation; acknowledgements of an older one are ignored.
package enum BrokerEvent: Sendable, Equatable {
    /// CONNACK accepted; the client published `online`.
    case connected(generation: UInt64)
    /// TCP, TLS or CONNACK failed; the client retries after a backoff.
    case connectFailed
    case disconnected(generation: UInt64)
    /// QoS 0 written, or QoS ≥ 1 acknowledged (PUBACK).
    case published(generation: UInt64, mid: Int32)
    /// SUBACK.
    case subscribed(generation: UInt64, mid: Int32)
    case message(topic: String, payload: [UInt8], retained: Bool)
}
