import AgentCore
import Platform

extension ExitCode {
    /// The exit code of the agent's end: 0, or the one its source's error carries.
    package init(_ termination: AgentTermination) {
        switch termination {
        case .clean: self = .success
        case .sourceFailed(let failure): self = ExitCode(rawValue: failure.exitStatus) ?? .software
        }
    }
}
