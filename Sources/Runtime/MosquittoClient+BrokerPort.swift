import AgentCore
import MQTTTransport

/// libmosquitto's session is the live `BrokerPort`; the transport itself knows no port (it sits
/// below the agent's core), so the conformance is written here, where both are seen.
extension MosquittoClient: BrokerPort {}
