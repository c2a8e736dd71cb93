/// A command-line mistake: printed with the usage line, exit 64 (EX_USAGE).
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
