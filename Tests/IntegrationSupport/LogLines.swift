import Synchronization

/// Collects a `Logger`'s lines for assertions.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    @Sendable func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
