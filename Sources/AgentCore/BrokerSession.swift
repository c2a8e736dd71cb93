import BeaconCore
import MessageContract

/// What the agent core asks of its MQTT session, answered on the spot: the shell adapts
/// `MosquittoClient` (whose `publish` only queues bytes for its network thread), tests a fake that
/// records every call. Acknowledgements come back later as `AgentInput.mqtt` events.
package protocol BrokerSession {
    /// Hands one message over on connection `generation`.
    mutating func publish(_ message: OutboundMessage, generation: UInt64) -> PublishOutcome
    /// Subscribes; the packet id its SUBACK will carry, or nil when it could not be sent.
    mutating func subscribe(_ pattern: String, qos: Int) -> Int32?
    mutating func unsubscribe(_ pattern: String)
}

/// The session's answer to one `publish`.
package enum PublishOutcome: Sendable, Equatable {
    /// Handed to the library with packet id `mid` (its on_publish reports it later).
    case sent(mid: Int32)
    /// No connection: the message keeps its place in the outbox.
    case notConnected
    /// Refused for good (an invalid topic, say): counted and logged, never retried.
    case failed(String)
}
