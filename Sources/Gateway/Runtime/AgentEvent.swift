/// Everything that reaches the agent's pipeline thread, through one `AgentEventQueue`.
public enum AgentEvent: Sendable {
    case source(SourceEvent)
    /// The source's `run` returned (end of input, stop, or an error).
    case sourceFinished(error: String?)
    case signal(Int32)
    case mqtt(MosquittoClient.Event)
}
