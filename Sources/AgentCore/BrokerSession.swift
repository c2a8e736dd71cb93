import MessageContract
import Vocabulary

/// What the agent core asks of its MQTT session, answered on the spot: the shell adapts
/// its `BrokerPort` (`BrokerPortSession`), tests a fake that records every call. Acknowledgements
/// come back later as `AgentInput.mqtt` events.
package protocol BrokerSession {
    /// Hands one message over on connection `generation`.
    mutating func publish(_ message: OutboundMessage, generation: UInt64) -> PublishOutcome
    /// Subscribes; the packet id its SUBACK will carry, or nil when it could not be sent.
    mutating func subscribe(_ pattern: String, qos: Int) -> Int32?
    mutating func unsubscribe(_ pattern: String)
}
