/// A finding that does not stop the agent (an insecure TLS setting, a changed value that cannot
/// take effect), located and printed like `ConfigError`.
package struct ConfigWarning: Sendable, Equatable, ConfigDiagnostic {
    package var file: String
    package var line: Int
    package var column: Int
    package var key: String
    package var message: String

    package init(file: String, line: Int, column: Int, key: String, message: String) {
        (self.file, self.line, self.column, self.key, self.message) = (file, line, column, key, message)
    }
}
