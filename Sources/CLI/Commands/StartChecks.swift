import BeaconConfig
import BeaconCore
import MQTTTransport
import MetricsTransport
import Platform
import Runtime
import Settings

/// Everything `run` and `locate` check before they connect, in one place, so `check-config` (and
/// the unit's ExecStartPre, which runs it) cannot pass a file they refuse: the configuration, every
/// file it names (readable; certificates and keys in PEM; a secret others can read is a warning),
/// the broker options, and libmicrohttpd when metrics are served. Failures exit 78, or 69 for a
/// missing library, in all three commands alike.
struct StartChecks {
    /// What the checks passed.
    let configuration: Configuration
    let connection: MQTTConnectionOptions
    /// Findings that do not stop a start, each `file:line:column: key: …`.
    let warnings: [ConfigWarning]
    /// No file at the default path: the built-in defaults apply.
    let builtInDefaults: Bool

    /// Which command starts: they serve metrics on different endpoints.
    enum Role {
        case gateway, locator

        func metricsEndpoint(_ settings: MetricsSettings) -> MetricsSettings.Endpoint? {
            switch self {
            case .gateway: settings.listen
            case .locator: settings.locatorEndpoint
            }
        }

        /// The key that names the endpoint, for messages about it.
        var metricsKey: String {
            switch self {
            case .gateway: "metrics.listen"
            case .locator: "metrics.locator_listen"
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        let code: ExitCode
    }

    /// Loads `path` (the default path may be absent unless `given`: built-in defaults), lets
    /// `adjust` change the result (a floor plan's gateway identity), and checks it for `role`.
    static func run(
        path: String, given: Bool, role: Role, adjust: (inout Configuration) throws -> Void = { _ in }
    ) throws(Failure) -> StartChecks {
        var configuration = Configuration()
        configuration.gateway.id = HostName.gatewayID()
        var warnings: [ConfigWarning] = []
        var files: [ConfigNamedFile] = []
        let builtInDefaults = !given && !FileSystem.exists(path)
        do {
            if !builtInDefaults {
                configuration = try ConfigLoader.load(
                    path: path, defaultGatewayID: configuration.gateway.id, warnings: &warnings, files: &files)
            }
            try adjust(&configuration)
            for file in files {
                if let warning = try check(file) { warnings.append(warning) }
            }
        } catch {
            throw Failure(description: "\(error)", code: .config)
        }
        let connection: MQTTConnectionOptions
        do {
            connection = try MQTTConnectionOptions(configuration: configuration)
        } catch {
            throw Failure(description: "\(error)", code: .config)
        }
        if role.metricsEndpoint(configuration.metrics) != nil, let problem = MetricsServer.unavailability {
            throw Failure(description: "\(role.metricsKey): \(problem)", code: .unavailable)
        }
        return StartChecks(
            configuration: configuration, connection: connection, warnings: warnings, builtInDefaults: builtInDefaults)
    }

    /// A named file the process cannot use is an error; a secret others may read, a warning.
    private static func check(_ file: ConfigNamedFile) throws(ConfigError) -> ConfigWarning? {
        let path = file.path
        if file.kind == .directory {
            if let problem = FileSystem.listingProblem(ofDirectory: path) {
                throw file.error("cannot read '\(path)': \(problem)")
            }
            return nil
        }
        let bytes: [UInt8]
        do { bytes = try FileSystem.contents(path) } catch { throw file.error("cannot read '\(path)': \(error)") }
        let text = String(decoding: bytes, as: UTF8.self)
        switch file.kind {
        case .certificate where !text.contains("-----BEGIN CERTIFICATE-----"):
            throw file.error("'\(path)' holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        case .privateKey where !text.contains("PRIVATE KEY-----") || text.contains("ENCRYPTED PRIVATE KEY"):
            throw file.error("'\(path)' holds no unencrypted PEM private key (-----BEGIN PRIVATE KEY-----)")
        case .credentials:
            do { _ = try MapPasswordFile.parse(text) } catch {
                throw file.error("'\(path)'\(error.line > 0 ? " line \(error.line)" : ""): \(error.message)")
            }
        default:
            break
        }
        guard file.kind.isSecret, let mode = FileSystem.permissions(path), mode & 0o004 != 0 else { return nil }
        return file.warning("secret file '\(path)' is world-readable; chmod o-r it")
    }
}
