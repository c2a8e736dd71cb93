import AgentCore
import Platform

/// A source error that is not a `SourceFailure` (a bug): EX_SOFTWARE.
struct UnexpectedSourceError: SourceFailure {
    let description: String
    init(_ underlying: any Error) { description = "\(underlying)" }
    var exitStatus: Int32 { ExitCode.software.rawValue }
}
