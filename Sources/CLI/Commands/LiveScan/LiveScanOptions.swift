import BeaconConfig
import BeaconCore
import BeaconWire
import HCITransport
import Platform
import Settings

/// The options `scan` and `record` share: `--adapter`, `--mode`, `--config`, `--verbose`. The
/// command line wins over the configuration file, which wins over the defaults.
struct LiveScanOptions {
    /// Help entries, with the command's own default mode.
    static func help(defaultMode: ScanConfiguration.Mode) -> [CommandHelp.Entry] {
        [
            .init(
                "--adapter <adapter>", "hciN, the controller address, or auto (default: scanner.adapter, else auto)."),
            .init("--mode <mode>", "active, passive or listen (default: scanner.mode, else \(defaultMode.rawValue))."),
            .init("--config <file>", "Take scanner settings and beacon names from this configuration."),
            .init("-v, --verbose", "Log every command sent."),
        ]
    }

    var adapter: HCIAdapterSelection?
    var mode: ScanConfiguration.Mode?
    var configPath: String?
    var verbose: Bool

    init(_ arguments: inout Arguments) throws(UsageError) {
        if let text = try arguments.option("--adapter") {
            guard let selection = HCIAdapterSelection(text) else {
                throw UsageError(
                    "'--adapter' takes hciN, a controller address (aa:bb:cc:dd:ee:ff) or auto, not '\(text)'")
            }
            adapter = selection
        }
        if let text = try arguments.option("--mode") {
            guard let parsed = ScanConfiguration.Mode(rawValue: text) else {
                throw UsageError("'--mode' takes active, passive or listen, not '\(text)'")
            }
            mode = parsed
        }
        configPath = try arguments.option("--config")
        verbose = arguments.flag("-v", "--verbose")
    }

    /// What to scan with, or nil after printing why the configuration is unusable (exit 78).
    func resolve(defaultMode: ScanConfiguration.Mode, context: CommandContext) -> Resolved? {
        guard let config = context.configuration(at: configPath) else { return nil }
        guard let selection = adapter ?? HCIAdapterSelection(config.bluetooth.scanner.adapter) else {
            context.err(
                "\(configPath ?? "configuration"): scanner.adapter: '\(config.bluetooth.scanner.adapter)' is not hciN, an address or auto\n"
            )
            return nil
        }
        var scan = ScanConfiguration(scanner: config.bluetooth.scanner)
        scan.mode = mode ?? (configPath == nil ? defaultMode : scan.mode)
        return Resolved(selection: selection, scan: scan, configuration: config)
    }

    struct Resolved: Equatable {
        var selection: HCIAdapterSelection
        var scan: ScanConfiguration
        /// The whole configuration (names, filters, distance model) for the monitoring engine.
        var configuration: Configuration
    }
}
