import AgentCore
import MessageContract
import Vocabulary

/// A `BrokerPort` as the agent core's `BrokerSession`: the core's calls, on the loop's thread. The
/// contract's message becomes a topic and bytes here, so the port never sees the contract: the
/// payload goes to the port straight from the string's storage.
struct BrokerPortSession: BrokerSession {
    let port: any BrokerPort

    func publish(_ message: OutboundMessage, generation: UInt64) -> PublishOutcome {
        var text = message.payload.text
        return text.withUTF8 {
            port.publish(
                topic: message.topic, payload: UnsafeRawBufferPointer($0), qos: message.qos, retain: message.retain,
                generation: generation)
        }
    }

    func subscribe(_ pattern: String, qos: Int) -> Int32? { port.subscribe(pattern, qos: qos) }

    func unsubscribe(_ pattern: String) { port.unsubscribe(pattern) }
}
