/// A log line as a value: the core returns these, the shell's `Logger` writes them, tests compare them.
package struct LogRecord: Sendable, Equatable, CustomStringConvertible {
    package struct Field: Sendable, Equatable {
        package var key: String
        package var value: String
    }

    package var level: LogLevel
    package var message: String
    package var fields: [Field]

    package init(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        self.level = level
        self.message = message
        self.fields = fields.map { Field(key: $0.key, value: $0.value) }
    }

    /// `level: message key=value …`, unquoted: for tests and assertions only.
    package var description: String {
        ([("\(level.rawValue): \(message)")] + fields.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
    }
}
