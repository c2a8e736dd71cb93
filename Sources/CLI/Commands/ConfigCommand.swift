import BeaconConfig
import BeaconCore
import BeaconWire
import Glibc
import MQTTTransport
import MessageContract
import Platform
import Settings

/// `beacon2mqtt config`: the operator's client for configuration over MQTT (`remote_config`). Reads
/// and edits the retained layers `<base>/fleet/config/set` and `<base>/gateways/<gw>/config/set`,
/// and shows a gateway's effective configuration. `set` and `unset` wait for the gateways' answer,
/// so a script can tell a refused change (exit 1) from an applied one (exit 0).
struct ConfigCommand: Command {
    static let help = CommandHelp(
        name: "config",
        abstract: "Read and change gateways' configuration over MQTT (remote_config).",
        usage:
            "beacon2mqtt config get|set|unset|show [--gateway <gw>|--fleet] [<key> [<value>]] [--config <file>] [--wait <seconds>] [--require-all]",
        discussion: """
            get [<key>] prints a layer (or one key of it) as JSON; show prints a gateway's effective
            configuration. set <key> <value> sets one key of a layer (the value is YAML or JSON: 2, "2",
            [...], {...}); unset [<key>] removes one key, or the whole layer. Both publish the layer
            retained and wait until the gateway (with --fleet: every gateway with a retained status or
            effective configuration) has applied it — its effective configuration carries the layer's
            digest — or refused it, then print one line per gateway (applied, refused and why, no
            answer, offline, no remote configuration) and with --fleet a summary. Keys are dotted
            (gateway.room); beacons and regions also take a mapping by identity (see configuration.md).
            The layer is this host's gateway.id unless --gateway or --fleet says otherwise. Exit codes:
            0 applied by every gateway that could answer (or printed), 1 refused by a gateway, no answer
            within --wait, not set, or a gateway offline or without remote configuration (with --fleet
            only if --require-all), 69 broker unreachable, 78 configuration error.
            """,
        options: [
            .init("--gateway <gw>", "The layer of one gateway (default: this host's gateway.id)."),
            .init("--fleet", "The layer every gateway applies."),
            .init("--config <file>", "Configuration file for the broker (default: \(RunCommand.defaultConfigPath))."),
            .init("--wait <seconds>", "Longest wait for the broker and the gateways' answer (default: 10)."),
            .init(
                "--require-all", "set/unset: also fail when a gateway is offline or takes no configuration over MQTT."),
        ])

    enum Action: String { case get, set, unset, show }

    let action: Action
    let key: String?
    let value: String?
    let fleet: Bool
    let gateway: String?
    let configPath: String?
    let wait: Int
    let requireAll: Bool

    init(_ arguments: inout Arguments) throws(UsageError) {
        configPath = try arguments.option("--config")
        requireAll = arguments.flag("--require-all")
        wait = try arguments.intOption("--wait", in: 1...300) ?? 10
        fleet = arguments.flag("--fleet")
        gateway = try arguments.option("--gateway")
        let rest = try arguments.positionals()
        guard let first = rest.first, let action = Action(rawValue: first) else {
            throw UsageError("'config' needs one of get, set, unset, show")
        }
        if fleet, gateway != nil { throw UsageError("'--fleet' and '--gateway' exclude each other") }
        switch action {
        case .get, .unset: guard rest.count <= 2 else { throw UsageError("'config \(first)' takes at most a key") }
        case .set: guard rest.count == 3 else { throw UsageError("'config set' needs a key and a value") }
        case .show:
            guard rest.count == 1 else { throw UsageError("'config show' takes no key") }
            if fleet { throw UsageError("'config show' shows one gateway's effective configuration; use --gateway") }
        }
        self.action = action
        key = rest.count > 1 ? rest[1] : nil
        value = rest.count > 2 ? rest[2] : nil
    }

    func run(_ context: CommandContext) -> ExitCode {
        let configuration: Configuration
        var options: MQTTConnectionOptions
        switch BrokerClientConfiguration.load(configPath, purpose: "config") {
        case .success(let loaded): (configuration, options) = loaded
        case .failure(let error):
            context.err("\(error)\n")
            return .config
        }
        options.cleanSession = true
        let topics = TopicTree(base: configuration.mqtt.baseTopic, gateway: gateway ?? configuration.gateway.id)
        let layerTopic = fleet ? topics.fleetConfigSet : topics.gatewayConfigSet
        var patterns = [layerTopic]
        if action != .get {
            patterns +=
                fleet
                ? [topics.anyGatewayStatus, topics.anyGatewayConfig, topics.anyGatewayConfigError]
                : [topics.gatewayStatus, topics.gatewayConfig, topics.gatewayConfigError]
        }
        let session = BrokerClientSession(
            options: options, patterns: action == .show ? [topics.gatewayConfig] : patterns)
        defer { session.stop() }
        let deadline = ContinuousClock.now + .seconds(wait)
        guard session.connect(by: deadline) else {
            context.err(
                "cannot reach the broker at \(BrokerClientSession.brokers(options)): \(session.lastFailure ?? "timeout")\n"
            )
            return .unavailable
        }
        let retained = session.retained(by: deadline)
        switch action {
        case .show:
            guard let document = retained[topics.gatewayConfig] else {
                context.err("\(topics.gateway) has published no effective configuration on \(topics.gatewayConfig)\n")
                return .failure
            }
            context.out(document + "\n")
            return .success
        case .get:
            return printLayer(retained[layerTopic], source: layerTopic, context)
        case .set, .unset:
            return change(
                retained, layerTopic: layerTopic, topics: topics, session: session, deadline: deadline, context)
        }
    }

    private func printLayer(_ payload: String?, source: String, _ context: CommandContext) -> ExitCode {
        do {
            let layer = try ConfigLayerDocument(payload: Array((payload ?? "").utf8), source: source)
            guard let key else {
                context.out(layer.json + "\n")
                return .success
            }
            guard let value = layer.value(key) else {
                context.err("\(key) is not set in \(source)\n")
                return .failure
            }
            context.out(value + "\n")
            return .success
        } catch {
            context.err("\(error)\n")
            return .failure
        }
    }

    private func change(
        _ retained: [String: String], layerTopic: String, topics: TopicTree, session: BrokerClientSession,
        deadline: ContinuousClock.Instant, _ context: CommandContext
    ) -> ExitCode {
        var layer: ConfigLayerDocument
        do {
            layer = try ConfigLayerDocument(payload: Array((retained[layerTopic] ?? "").utf8), source: layerTopic)
            if action == .set, let key, let value {
                try layer.set(key, valueText: value)
            } else if let key {
                guard layer.remove(key) else {
                    context.err("\(key) is not set in \(layerTopic); nothing to do\n")
                    return .success
                }
            } else {
                layer = try ConfigLayerDocument(payload: [], source: layerTopic)
            }
        } catch {
            context.err("\(error)\n")
            return .failure
        }
        let payload = layer.isEmpty ? "" : layer.json
        let confirmation = ConfigConfirmation(
            retained: retained, layer: fleet ? .fleet : .gateway,
            digest: payload.isEmpty ? nil : ConfigLayer.digest(Array(payload.utf8)),
            topics: topics, only: fleet ? nil : topics.gateway)
        guard session.publish(layerTopic, payload: payload) else {
            context.err("could not publish \(layerTopic): \(session.lastFailure ?? "not connected")\n")
            return .unavailable
        }
        if confirmation.known.isEmpty {
            context.err(
                "published \(layerTopic); no gateway has published a status or an effective configuration to confirm it\n"
            )
            return requireAll ? .failure : .success
        }
        let live = session.live(by: deadline) { confirmation.isComplete(live: $0) }
        return report(confirmation.outcomes(live: live), context)
    }

    /// One line per gateway (applied on stdout, the rest on stderr), a summary with `--fleet`, and
    /// the exit code: 1 when a gateway refused or did not answer — or when one is offline or takes no
    /// configuration over MQTT, if it is the one gateway named (or `--require-all` says so).
    private func report(_ outcomes: [String: ConfigConfirmation.Outcome], _ context: CommandContext) -> ExitCode {
        var status = ExitCode.success
        var counts: [String: Int] = [:]
        for gw in outcomes.keys.sorted() {
            let line: String
            switch outcomes[gw]! {
            case .applied:
                context.out("\(gw): applied\n")
                counts["applied", default: 0] += 1
                continue
            case .refused(let diagnostics):
                line = "refused: " + diagnostics.joined(separator: "; ")
                counts["refused", default: 0] += 1
                status = .failure
            case .noAnswer:
                line = "no answer within \(wait) s"
                counts["no answer", default: 0] += 1
                status = .failure
            case .offline:
                line = "offline; it applies the retained layer when it connects again"
                counts["offline", default: 0] += 1
                if requireAll || !fleet { status = .failure }
            case .noRemoteConfig:
                line = "publishes no effective configuration (remote_config.enabled is off there, or it is not running)"
                counts["without remote configuration", default: 0] += 1
                if requireAll || !fleet { status = .failure }
            }
            context.err("\(gw): \(line)\n")
        }
        if fleet {
            let parts = ["applied", "refused", "no answer", "offline", "without remote configuration"].compactMap {
                key in
                counts[key].map { "\($0) \(key)" }
            }
            context.err(
                "\(outcomes.count) gateway\(outcomes.count == 1 ? "" : "s"): \(parts.joined(separator: ", "))\n")
        }
        return status
    }
}
