/// A signal as the agent core sees it (the shell's sigwait thread maps the numbers).
package enum AgentSignal: Sendable, Equatable {
    /// SIGTERM or SIGINT: stop the source, flush, disconnect, exit 0.
    case stop(name: String)
    /// SIGHUP: reload the configuration file.
    case reload
}
