import BeaconConfig
import BeaconCore
import Platform

/// `beacon2mqtt check-config FILE`: the same validation `run` does at start and on SIGHUP.
struct CheckConfigCommand: Command {
    static let help = CommandHelp(
        name: "check-config",
        abstract: "Validate a configuration file.",
        usage: "beacon2mqtt check-config <file>",
        discussion: """
            Exits 0 when the file is valid, and 78 with file:line:column: key: what is wrong when not.
            Warnings (as run logs them, a world-readable password or key file among them) go to stderr.
            """,
        arguments: [.init("<file>", "The YAML configuration, e.g. /etc/beacon2mqtt/beacon2mqtt.yaml.")])

    let path: String

    init(_ arguments: inout Arguments) throws(UsageError) {
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else { throw UsageError("expected exactly one configuration file") }
        path = positionals[0]
    }

    func run(_ context: CommandContext) -> ExitCode {
        var warnings: [ConfigWarning] = []
        let config: Configuration
        do {
            config = try ConfigLoader.load(path: path, defaultGatewayID: HostName.gatewayID(), warnings: &warnings)
        } catch {
            context.err("\(error)\n")
            return .config
        }
        for warning in warnings { context.err("warning: \(warning)\n") }
        for file in config.worldReadableSecrets() {
            context.err("warning: \(Configuration.worldReadableSecretWarning): \(file)\n")
        }
        let regions = config.regions.isEmpty ? "no regions (every beacon is tracked)" : "\(config.regions.count) region(s)"
        context.out(
            "\(path): OK — gateway \(config.gateway.id), broker \(config.mqtt.host):\(config.mqtt.port), \(regions)\n")
        return .success
    }
}
