import Glibc
import Synchronization

/// What a command may touch of the outside world: its output streams and environment.
/// Tests run commands in-process with a context that captures the output.
public final class CommandContext: Sendable {
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    private let flushOut: @Sendable () -> Void
    public let environment: [String: String]

    public init(
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
    public static func process() -> CommandContext {
        let out = FileDescriptorWriter(fd: 1, bufferSize: 64 * 1024)
        let err = FileDescriptorWriter(fd: 2, bufferSize: 0)
        return CommandContext(stdout: { out.write($0) }, stderr: { err.write($0) }, flush: { out.flush() })
    }

    public func out(_ text: String) { writeOut(text) }
    public func err(_ text: String) { writeErr(text) }
    public func flush() { flushOut() }
}

/// Buffered writes to a file descriptor through write(2), safe from any thread.
final class FileDescriptorWriter: Sendable {
    private let fd: Int32
    private let bufferSize: Int
    private let buffer = Mutex<[UInt8]>([])

    init(fd: Int32, bufferSize: Int) {
        self.fd = fd
        self.bufferSize = bufferSize
    }

    deinit { flush() }

    func write(_ text: String) {
        buffer.withLock { pending in
            pending.append(contentsOf: text.utf8)
            if pending.count > bufferSize { drain(&pending) }
        }
    }

    func flush() { buffer.withLock { drain(&$0) } }

    private func drain(_ pending: inout [UInt8]) {
        // EPIPE and friends: the reader went away; drop the output.
        try? Syscall.writeAll(fd, pending) { code in SystemCallError("write", code: code) }
        pending.removeAll(keepingCapacity: true)
    }
}
