/// Why the agent's loop ended; the shell turns it into the process exit code.
package enum AgentTermination: Sendable {
    /// A signal, or the end of a replay or simulation: exit 0.
    case clean
    /// The source failed: the exit status comes from its error.
    case sourceFailed(any SourceFailure)
}
