import Glibc

/// A system call that failed: what was being done, and errno as it was right after the call.
package struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, for the message (`open '/tmp/x.log'`, `read hci0`).
    package var operation: String
    /// errno, read on the spot by `Syscall`.
    package var code: Int32

    package init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// The system's text for `code` (`No such file or directory`).
    package var reason: String { String(cString: strerror(code)) }

    package var description: String { "\(operation): \(reason)" }
}
