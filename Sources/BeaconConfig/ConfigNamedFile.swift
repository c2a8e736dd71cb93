/// A file the configuration names (`mqtt.password_file`, the TLS files while TLS is on,
/// `devices[].irk_file`) and where it names it, so the checks a start makes before connecting
/// (`run`, `locate`, `check-config`) report on it as `file:line:column: key: …` like any other
/// configuration problem.
package struct ConfigNamedFile: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// A password or an identity resolving key.
        case secret
        /// A PEM certificate (`mqtt.tls.ca_file`, `cert_file`).
        case certificate
        /// A PEM private key (`mqtt.tls.key_file`).
        case privateKey
        /// A directory of certificates (`mqtt.tls.ca_path`).
        case directory
        /// `user:password` lines (`metrics.map_password_file`, `MapPasswordFile`).
        case credentials

        /// For the service's eyes only: others should not read it.
        package var isSecret: Bool { self == .secret || self == .privateKey || self == .credentials }
    }

    package var path: String
    package var kind: Kind
    /// Where the key names it.
    package var file: String
    package var line: Int
    package var column: Int
    package var key: String

    package init(path: String, kind: Kind, file: String, line: Int, column: Int, key: String) {
        (self.path, self.kind, self.file, self.line, self.column, self.key) = (path, kind, file, line, column, key)
    }

    package func error(_ message: String) -> ConfigError {
        ConfigError(file: file, line: line, column: column, key: key, message: message)
    }

    package func warning(_ message: String) -> ConfigWarning {
        ConfigWarning(file: file, line: line, column: column, key: key, message: message)
    }
}
