import AgentCore
import BeaconConfig
import BeaconCore
import BeaconWire
import Dispatch
import Glibc
import MQTTTransport
import MetricsTransport
import Platform
import Runtime
import Settings
import Synchronization
import Vocabulary

/// `beacon2mqtt locate`: the locator as its own process. Subscribes to every gateway's proximity,
/// exit events and status under `mqtt.base_topic` and publishes where each beacon is
/// (docs/locator.md). Any number may run, one per gateway host for instance: they agree.
struct LocateCommand: Command {
    static let help = CommandHelp(
        name: "locate",
        abstract: "Locate beacons floor by floor from all gateways' proximity messages.",
        usage: "beacon2mqtt locate [--config <file>] [--clock wall|messages] [--mqtt-room <topic>]",
        discussion: """
            Publishes retained <base>/<beacon>/location ({"gateway","floor","room","accuracy","since",
            "confidence",…}) and a <base>/<beacon>/event (location or not_home) on every change, with
            hysteresis against room flapping. Uses the configuration's mqtt section; its own status is
            <base>/locators/<gateway.id>/status. SIGTERM or SIGINT stops it (exit 0).
            Serves /metrics on metrics.locator_listen (default: metrics.listen's address, next port).
            Exit codes: 0 clean stop, 64 usage, 69 metrics.locator_listen not available, 78 configuration error.
            """,
        options: [
            .init("--config <file>", "Configuration file (default: \(RunCommand.defaultConfigPath))."),
            .init(
                "--clock wall|messages", "Decide ticks by the wall clock (default) or by the newest reading (replays)."),
            .init("--mqtt-room <topic>", "Also feed Home Assistant mqtt_room under <topic>/<room>."),
        ])

    let configPath: String?
    let clock: LocateService.Clock
    let mqttRoom: String?

    init(_ arguments: inout Arguments) throws(UsageError) {
        configPath = try arguments.option("--config")
        let clockText = try arguments.option("--clock")
        mqttRoom = try arguments.option("--mqtt-room")
        try arguments.finish()
        switch clockText {
        case nil, "wall": clock = .wall
        case "messages": clock = .messages
        case let other?: throw UsageError("'--clock' is 'wall' or 'messages', not '\(other)'")
        }
        if let mqttRoom, let problem = TopicName.problem(topic: mqttRoom) {
            throw UsageError("'--mqtt-room' \(problem)")
        }
    }

    /// The configuration's `locator:` settings; `locate` runs the locator whatever `enabled` says.
    static func settings(_ configuration: Configuration) -> LocatorSettings {
        var s = configuration.locator
        s.enabled = true
        return s
    }

    func run(_ context: CommandContext) -> ExitCode {
        SignalWatcher.blockSignals()
        let path = configPath ?? RunCommand.defaultConfigPath
        var logger = Logger.standardError(level: .info, environment: context.environment)
        let checked: StartChecks
        do {
            checked = try StartChecks.run(path: path, given: configPath != nil, role: .locator)
        } catch {
            logger.error("\(error)")
            return error.code
        }
        for warning in checked.warnings { logger.warning("\(warning)") }
        let configuration = checked.configuration
        // The configuration's level from here on (as run does): debug shows the foreign messages ignored.
        logger.level = configuration.logLevel
        let connection = checked.connection
        var settings = Self.settings(configuration)
        if let mqttRoom { settings.mqttRoomTopic = mqttRoom }
        guard let metrics = MetricsEndpoint.start(for: .locator, configuration.metrics, logger: logger) else {
            return .unavailable
        }
        defer { metrics.stop() }
        let service = LocateService(
            configuration: configuration, settings: settings, connection: connection, clock: clock, logger: logger,
            metrics: metrics.board)
        logger.info("locator starting", ["broker": "\(connection.host):\(connection.port)", "clock": "\(clock)"])
        service.start()
        // SIGHUP is taken and ignored: locate has no reload.
        let stopSignal = Mutex<Int32?>(nil)
        let stopping = DispatchSemaphore(value: 0)
        SignalWatcher.start { number in
            guard number != SIGHUP,
                stopSignal.withLock({ s in
                    defer { s = s ?? number }
                    return s == nil
                })
            else {
                return
            }
            stopping.signal()
        }
        stopping.wait()
        let received = stopSignal.withLock { $0 } ?? 0
        logger.info(
            "locator stopping", ["signal": SignalWatcher.name(received), "published": "\(service.published)"])
        service.stop()
        return .success
    }
}
