/// Where the agent is in its life. Timers run while `running` and `draining`.
import Vocabulary

package enum AgentPhase: Sendable, Equatable {
    /// Reading our retained attributes back (`RestoreSession`); no packet is taken yet.
    case restoring
    case running
    /// A finite source ended: the pipeline's clock runs on until every pending exit fired.
    case draining
    /// Publishing what is queued until the outbox is empty or `deadline` passes.
    case finishing(deadline: MonotonicInstant)
    /// The loop ends (`AgentCore.termination` says how).
    case ended
}
