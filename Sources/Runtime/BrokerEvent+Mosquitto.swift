import AgentCore
import MQTTTransport

extension BrokerEvent {
    /// The client's event as the agent core sees it (reasons stay with the client's own log lines).
    init(_ event: MosquittoClient.Event) {
        switch event {
        case .connected(let generation): self = .connected(generation: generation)
        case .connectFailed: self = .connectFailed
        case .disconnected(let generation, _): self = .disconnected(generation: generation)
        case .published(let generation, let mid): self = .published(generation: generation, mid: mid)
        case .subscribed(let generation, let mid): self = .subscribed(generation: generation, mid: mid)
        case .message(let topic, let payload, _, let retained):
            self = .message(topic: topic, payload: payload, retained: retained)
        }
    }
}
