/// A command-line mistake: printed with the usage line, exit 64 (EX_USAGE).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
