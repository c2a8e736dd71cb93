/// A finding that does not stop the agent (an insecure TLS setting, a changed value that cannot
/// take effect), located and printed like `ConfigError`.
public struct ConfigWarning: Sendable, Equatable, ConfigDiagnostic {
    public var file: String
    public var line: Int
    public var column: Int
    public var key: String
    public var message: String

    public init(file: String, line: Int, column: Int, key: String, message: String) {
        (self.file, self.line, self.column, self.key, self.message) = (file, line, column, key, message)
    }
}
