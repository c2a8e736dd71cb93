import AgentCore
import HCITransport
import Platform

/// The CLI's reading of an HCI failure; kept out of the HCI layer, which never sees the CLI.
extension HCIError {
    /// sysexits(3) EX_UNAVAILABLE for all of them: the adapter (or Bluetooth itself) is unavailable.
    package var exitCode: ExitCode { .unavailable }
}

/// A fatal HCI error ends `run` with its own exit code.
extension HCIError: SourceFailure {
    package var exitStatus: Int32 { exitCode.rawValue }
}
