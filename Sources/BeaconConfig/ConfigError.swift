/// A configuration problem, located in its file: printed as `file:line:column: key: what is wrong`.
package struct ConfigError: Error, Sendable, Equatable, ConfigDiagnostic {
    package var file: String
    /// 1-based; 0 when the problem has no position (the file could not be read).
    package var line: Int
    package var column: Int
    /// Dotted key path, e.g. `ranging.filter.window` or `regions[2].uuid`; empty for syntax errors.
    package var key: String
    package var message: String

    package init(file: String, line: Int, column: Int, key: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }
}
