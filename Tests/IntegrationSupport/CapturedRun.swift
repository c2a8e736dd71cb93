import CLI
import Synchronization

@testable import Platform
@testable import Runtime

/// Runs the CLI in-process and captures what it prints.
struct CapturedRun {
    var code: ExitCode
    var stdout: String
    var stderr: String

    init(_ arguments: [String], environment: [String: String] = [:]) {
        let out = Mutex("")
        let err = Mutex("")
        let context = CommandContext(
            environment: environment,
            stdout: { text in out.withLock { $0 += text } },
            stderr: { text in err.withLock { $0 += text } })
        code = CommandLineTool.main(arguments, context: context)
        stdout = out.withLock { $0 }
        stderr = err.withLock { $0 }
    }
}
