/// What a broker session reports, in the words the MQTT transport and the agent's core share (the
/// transport raises these, the core's `handle` reads them, so neither re-maps the other's). Every
/// connection has a generation; acknowledgements of an older one are ignored.
package enum BrokerEvent: Sendable, Equatable {
    /// CONNACK accepted; the session published `online` (when it announces availability).
    case connected(generation: UInt64)
    /// TCP, TLS or CONNACK failed; the session retries after a backoff.
    case connectFailed(reason: String)
    case disconnected(generation: UInt64, reason: String = "")
    /// QoS 0 written, or QoS ≥ 1 acknowledged (PUBACK).
    case published(generation: UInt64, mid: Int32)
    /// SUBACK for a `subscribe`.
    case subscribed(generation: UInt64, mid: Int32)
    case message(topic: String, payload: [UInt8], qos: Int = 0, retained: Bool)
}

/// A broker session's answer to one publish.
package enum PublishOutcome: Sendable, Equatable {
    /// Handed to the library with packet id `mid` (its on_publish reports it later).
    case sent(mid: Int32)
    /// No connection: the message keeps its place in the outbox.
    case notConnected
    /// Refused for good (an invalid topic, say): counted and logged, never retried.
    case failed(String)
}
