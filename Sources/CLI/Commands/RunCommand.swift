import AgentCore
import BeaconConfig
import BeaconCore
import BeaconWire
import CaptureTransport
import GatewayPipeline
import Glibc
import HCITransport
import IdentityCrypto
import MQTTTransport
import MessageContract
import MetricsTransport
import Platform
import Runtime
import Settings
import Simulation
import Vocabulary

/// `beacon2mqtt run`: the daemon. Reads beacons from a source and publishes the message contract
/// to the broker until SIGTERM/SIGINT (or the end of a replay or simulation).
struct RunCommand: Command {
    static let defaultConfigPath = "/etc/beacon2mqtt/beacon2mqtt.yaml"

    static let help = CommandHelp(
        name: "run",
        abstract: "Run the gateway: scan (or replay, or simulate) and publish to the MQTT broker.",
        usage: "beacon2mqtt run [--config <file>] [--replay <file> [--speed <n>|max]] "
            + "[--simulate [--beacons <n>] [--seed <s>] [--floor-plan <file> --as-gateway <id> [--start-at <t>]]]",
        discussion: """
            Publishes enter/exit events, retained states, proximity and ranging messages, a retained
            `online`/`offline` status and periodic stats. SIGTERM or SIGINT stops cleanly (exit 0) after
            publishing what is queued; SIGHUP reloads the configuration (a bad file is logged and ignored).
            Without --replay or --simulate, scans the adapter that scanner.adapter selects.
            Exit codes: 0 clean stop, 64 usage, 65 damaged capture, 66 replay file unreadable, 69 broker
            unavailable at start with mqtt.require_broker_at_start, no usable Bluetooth adapter, or
            metrics.listen not available, 78 configuration error.
            """,
        options: [
            .init("--config <file>", "Configuration file (default: \(defaultConfigPath))."),
            .init("--replay <file>", "Read packets from a capture (btsnoop, pcap, pcapng, hcidump text)."),
            .init("--speed <n>|max", "Replay at n times capture speed, or as fast as possible (default: 1)."),
            .init("--simulate", "Generate advertisements of a few iBeacons walking in and out of range."),
            .init("--beacons <n>", "Simulated beacons (default: 3)."),
            .init("--seed <s>", "Seed of the simulation's random walk (default: 1)."),
            .init("--floor-plan <file>", "With --simulate: walk the beacons of a floor plan (docs/locator.md) …"),
            .init("--as-gateway <id>", "… as that plan's gateway (its id, floor and room)."),
            .init(
                "--start-at <t>",
                "The plan's walk begins at t (Unix seconds) and repeats from it (default: at every multiple of its "
                    + "duration since the epoch)."),
        ])

    let configPath: String?
    let replayPath: String?
    let speed: Double?
    let simulate: Bool
    let beacons: Int
    let seed: UInt64
    let floorPlan: (path: String, gateway: String, start: Double?)?

    init(_ arguments: inout Arguments) throws(UsageError) {
        configPath = try arguments.option("--config")
        replayPath = try arguments.option("--replay")
        let speedText = try arguments.option("--speed")
        simulate = arguments.flag("--simulate")
        beacons = try arguments.intOption("--beacons", in: 1...200) ?? 3
        let seedText = try arguments.option("--seed")
        let floorPlanPath = try arguments.option("--floor-plan")
        let asGateway = try arguments.option("--as-gateway")
        let startText = try arguments.option("--start-at")
        try arguments.finish()
        var start: Double?
        if let startText {
            guard floorPlanPath != nil else { throw UsageError("'--start-at' needs '--floor-plan'") }
            guard let value = Double(startText), value.isFinite, value >= 0 else {
                throw UsageError("'--start-at' needs Unix seconds, not '\(startText)'")
            }
            start = value
        }
        switch (floorPlanPath, asGateway) {
        case (let p?, let g?):
            guard simulate else { throw UsageError("'--floor-plan' needs '--simulate'") }
            floorPlan = (p, g, start)
        case (nil, nil): floorPlan = nil
        default: throw UsageError("'--floor-plan' and '--as-gateway' go together")
        }
        if replayPath != nil, simulate { throw UsageError("'--replay' and '--simulate' exclude each other") }
        if speedText != nil, replayPath == nil { throw UsageError("'--speed' needs '--replay'") }
        switch speedText {
        case nil: speed = 1
        case "max": speed = nil
        case let text?:
            guard let value = Double(text), value > 0, value.isFinite else {
                throw UsageError("'--speed' needs a positive number or 'max', not '\(text)'")
            }
            speed = value
        }
        if let seedText {
            guard let value = UInt64(seedText) else {
                throw UsageError("'--seed' needs a whole number, not '\(seedText)'")
            }
            seed = value
        } else {
            seed = 1
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        // Before any thread exists, so every thread inherits the mask and only sigwait sees them.
        SignalWatcher.blockSignals()
        let path = configPath ?? Self.defaultConfigPath
        let bootLogger = Logger.standardError(level: .info, environment: context.environment)
        var floorPlanSource: FloorPlanSource?
        let checked: StartChecks
        do {
            checked = try StartChecks.run(path: path, given: configPath != nil, role: .gateway) { configuration in
                if let floorPlan {
                    floorPlanSource = try FloorPlanSource.load(
                        path: floorPlan.path, gateway: floorPlan.gateway, start: floorPlan.start,
                        configuration: &configuration)
                }
            }
        } catch {
            bootLogger.error("\(error)")
            return error.code
        }
        if checked.builtInDefaults {
            bootLogger.notice("no configuration file; using built-in defaults", ["path": path])
        }
        for warning in checked.warnings { bootLogger.warning("\(warning)") }
        var configuration = checked.configuration
        let connection = checked.connection
        let logger = Logger.standardError(level: configuration.logLevel, environment: context.environment)

        let source: any PacketSource
        // The `adapter` label of /metrics.
        var adapter = configuration.bluetooth.scanner.adapter
        var options = AgentOptions()
        if let replayPath {
            do {
                source = try ReplaySource(
                    path: replayPath, speed: speed,
                    readPacing: ReadPacing.Policy(readInterval: configuration.bluetooth.scanner.readInterval))
            } catch {
                logger.error("\(error)")
                return .noInput
            }
            options.timing = .capture(speed: speed)
            adapter = "replay"
        } else if let floorPlanSource {
            source = floorPlanSource
            adapter = "simulator"
        } else if simulate {
            source = SimulatedSource(beacons: beacons, seed: seed)
            adapter = "simulator"
        } else {
            let hciLogger = logger
            guard
                let live = HCISource(
                    scanner: configuration.bluetooth.scanner, advertise: configuration.bluetooth.advertise,
                    log: { level, line in hciLogger.log(level, line) })
            else {
                logger.error(
                    "scanner.adapter: not hciN, a controller address or auto",
                    ["adapter": configuration.bluetooth.scanner.adapter])
                return .config
            }
            source = live
            options.announcesAdvertising = true
            options.sourceDelay =
                ReadPacing(ReadPacing.Policy(readInterval: configuration.bluetooth.scanner.readInterval)).longestHold
        }
        let identity = configuration.gateway
        let fromFloorPlan = floorPlanSource != nil
        // A changed `advertise:` reaches the radio through the agent core's `advertise` action.
        let given = configPath != nil
        let reload = { () throws -> Configuration in
            let checked = try StartChecks.run(path: path, given: given, role: .gateway) { c in
                if fromFloorPlan { c.gateway = identity }
            }
            if checked.builtInDefaults {
                logger.notice("no configuration file; using built-in defaults", ["path": path])
            }
            for warning in checked.warnings { logger.warning("\(warning)") }
            return checked.configuration
        }
        var layering: (layers: any ConfigurationLayering, start: ConfigurationUpdate)?
        if configuration.remoteConfig.enabled {
            do {
                let store = try RemoteConfigStore.open(
                    path: path, stateDirectory: RemoteConfigStore.stateDirectory(context.environment)
                ) { c in if fromFloorPlan { c.gateway = identity } }
                for problem in store.restoreKeptLayers(at: WallClock.now()) {
                    logger.warning("kept configuration layer not applied", ["error": problem])
                }
                if let problem = FileSystem.writabilityProblem(ofDirectory: store.stateDirectory) {
                    logger.warning(
                        "state directory not writable: layers set over MQTT apply but are not kept for a start without the broker",
                        ["error": problem.description])
                }
                let start = store.update
                if !start.layers.isEmpty {
                    logger.info(
                        "configuration layers kept from the last run applied",
                        [
                            "layers": start.layers.map(\.rawValue).sorted().joined(separator: ","),
                            "directory": store.stateDirectory,
                        ])
                }
                configuration = start.configuration
                layering = (store, start)
            } catch {
                logger.error("\(error)")
                return .config
            }
        }
        guard let metrics = MetricsEndpoint.start(for: .gateway, configuration.metrics, logger: logger) else {
            return .unavailable
        }
        defer { metrics.stop() }
        let agent = Agent(
            configuration: configuration, connection: connection,
            pipeline: Pipeline(configuration: configuration, identityResolver: AESIdentityResolver.factory),
            source: source, options: options, logger: logger,
            metrics: metrics.board.map { ($0, adapter) }, reload: reload, layering: layering,
            // The embedded locator (locator.enabled) runs on its own MQTT session beside the agent's.
            locator: EmbeddedLocator(connection: connection, logger: logger, metrics: metrics.board))
        return agent.run()
    }
}
