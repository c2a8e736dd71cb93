import AgentCore
import BeaconCore
import MQTTTransport
import MessageContract

/// `MosquittoClient` as the agent core's `BrokerSession`: the core's calls, on the pipeline thread.
struct MosquittoSession: BrokerSession {
    let client: MosquittoClient

    func publish(_ message: OutboundMessage, generation: UInt64) -> PublishOutcome {
        switch client.publish(message, generation: generation) {
        case .sent(let mid): .sent(mid: mid)
        case .notConnected: .notConnected
        case .failed(let reason): .failed(reason)
        }
    }

    func subscribe(_ pattern: String, qos: Int) -> Int32? { client.subscribe(pattern, qos: qos) }

    func unsubscribe(_ pattern: String) { client.unsubscribe(pattern) }
}
