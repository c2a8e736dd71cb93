import BeaconCore
import Settings
import Vocabulary

/// Everything that reaches the agent core, through the shell's one event queue.
package enum AgentInput: Sendable {
    case source(SourceEvent)
    /// The source's `run` returned: end of input or stop (nil), or a failure that ends the agent.
    case sourceFinished((any SourceFailure)?)
    case signal(AgentSignal)
    case mqtt(BrokerEvent)
    /// The running configuration changed (a reload, a layer set over MQTT): what the embedded
    /// locator's `LocatorCore` follows. `AgentCore` takes its own through `reloaded`/`layerApplied`.
    case configuration(Configuration)
}
