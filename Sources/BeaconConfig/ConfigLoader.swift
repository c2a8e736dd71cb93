import BeaconCore
import Glibc
import Settings

/// Reads `beacon2mqtt.yaml` into a `Configuration`.
///
/// Errors name `file:line:column: key.path: what is wrong`; unknown keys are errors (with a
/// did-you-mean), so a typo never silently leaves a default in place. Non-fatal findings, such as
/// `mqtt.tls.insecure: true`, come back as warnings.
package enum ConfigLoader {
    /// Parses YAML text; keys the text leaves out keep their value from `defaults`.
    package static func parse(
        yaml: String, file: String, defaults: Configuration = Configuration()
    ) throws(ConfigError) -> Configuration {
        var warnings: [ConfigWarning] = []
        return try parse(yaml: yaml, file: file, defaults: defaults, warnings: &warnings)
    }

    /// Parses YAML text and appends non-fatal findings to `warnings`.
    package static func parse(
        yaml: String, file: String, defaults: Configuration = Configuration(), warnings: inout [ConfigWarning]
    ) throws(ConfigError) -> Configuration {
        try parse(bytes: Array(yaml.utf8), file: file, defaults: defaults, warnings: &warnings)
    }

    /// Reads and parses the file at `path`; `defaultGatewayID` (normally the host name) is the
    /// gateway id unless the file sets `gateway.id`.
    package static func load(path: String, defaultGatewayID: String) throws(ConfigError) -> Configuration {
        var warnings: [ConfigWarning] = []
        return try load(path: path, defaultGatewayID: defaultGatewayID, warnings: &warnings)
    }

    package static func load(
        path: String, defaultGatewayID: String, warnings: inout [ConfigWarning]
    ) throws(ConfigError) -> Configuration {
        var files: [ConfigNamedFile] = []
        return try load(path: path, defaultGatewayID: defaultGatewayID, warnings: &warnings, files: &files)
    }

    /// `load`, also listing the files the configuration names (for the checks before a start).
    package static func load(
        path: String, defaultGatewayID: String, warnings: inout [ConfigWarning], files: inout [ConfigNamedFile]
    ) throws(ConfigError) -> Configuration {
        var defaults = Configuration()
        defaults.gateway.id = defaultGatewayID
        return try parse(bytes: try readFile(path), file: path, defaults: defaults, warnings: &warnings, files: &files)
    }

    static func parse(
        bytes: [UInt8], file: String, defaults: Configuration, warnings: inout [ConfigWarning]
    ) throws(ConfigError) -> Configuration {
        var files: [ConfigNamedFile] = []
        return try parse(bytes: bytes, file: file, defaults: defaults, warnings: &warnings, files: &files)
    }

    static func parse(
        bytes: [UInt8], file: String, defaults: Configuration, warnings: inout [ConfigWarning],
        files: inout [ConfigNamedFile]
    ) throws(ConfigError) -> Configuration {
        let root = try YAMLDocumentParser(file: file).parse(bytes)
        var decoder = ConfigDecoder(file: file)
        let config = try decoder.decode(root, defaults: defaults)
        warnings += decoder.warnings
        files += decoder.namedFiles
        return config
    }

    /// The one place this module touches a file: the whole file, with errno's text on failure.
    package static func readFile(_ path: String) throws(ConfigError) -> [UInt8] {
        func failure() -> ConfigError {
            ConfigError(
                file: path, line: 0, column: 0, key: "", message: "cannot read: \(String(cString: strerror(errno)))")
        }
        guard let stream = fopen(path, "rb") else { throw failure() }
        defer { fclose(stream) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, stream) }
            bytes += chunk[0..<count]
            if count < chunk.count {
                if ferror(stream) != 0 { throw failure() }
                return bytes
            }
        }
    }
}
