import Platform

/// What a command may touch of the outside world: its output streams and environment.
/// Tests run commands in-process with a context that captures the output.
package final class CommandContext: Sendable {
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    private let flushOut: @Sendable () -> Void
    package let environment: [String: String]

    package init(
        environment: [String: String]? = nil,
        stdout: @escaping @Sendable (String) -> Void, stderr: @escaping @Sendable (String) -> Void,
        flush: @escaping @Sendable () -> Void = {}
    ) {
        self.environment = environment ?? ProcessEnvironment.current()
        self.writeOut = stdout
        self.writeErr = stderr
        self.flushOut = flush
    }

    /// The real process streams: stdout is block-buffered (jsonl output stays fast), stderr is not.
    package static func process() -> CommandContext {
        let out = FileDescriptorWriter(fd: 1, bufferSize: 64 * 1024)
        let err = FileDescriptorWriter(fd: 2, bufferSize: 0)
        return CommandContext(stdout: { out.write($0) }, stderr: { err.write($0) }, flush: { out.flush() })
    }

    package func out(_ text: String) { writeOut(text) }
    package func err(_ text: String) { writeErr(text) }
    package func flush() { flushOut() }
}
