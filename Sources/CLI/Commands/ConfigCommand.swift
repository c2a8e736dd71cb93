import BeaconConfig
import BeaconCore
import BeaconWire
import Glibc
import MQTTTransport
import MessageContract
import Platform

/// `beacon2mqtt config`: the operator's client for configuration over MQTT (`remote_config`). Reads
/// and edits the retained layers `<base>/fleet/config/set` and `<base>/gateways/<gw>/config/set`,
/// and shows a gateway's effective configuration. `set` and `unset` wait for the gateways' answer,
/// so a script can tell a refused change (exit 1) from an applied one (exit 0).
struct ConfigCommand: Command {
    static let help = CommandHelp(
        name: "config",
        abstract: "Read and change gateways' configuration over MQTT (remote_config).",
        usage: "beacon2mqtt config get|set|unset|show [--gateway <gw>|--fleet] [<key> [<value>]] [--config <file>] [--wait <seconds>]",
        discussion: """
            get [<key>] prints a layer (or one key of it) as JSON; show prints a gateway's effective
            configuration. set <key> <value> sets one key of a layer (the value is YAML or JSON: 2, "2",
            [...], {...}); unset [<key>] removes one key, or the whole layer. Both publish the layer
            retained and wait for the effective configuration or the error of the gateway (with --fleet:
            of every gateway that has published an effective configuration). Keys are dotted
            (gateway.room); beacons and regions also take a mapping by identity (see configuration.md).
            The layer is this host's gateway.id unless --gateway or --fleet says otherwise. Exit codes:
            0 applied (or printed), 1 refused by a gateway, not set, or no answer within --wait, 69
            broker unreachable, 78 configuration error.
            """,
        options: [
            .init("--gateway <gw>", "The layer of one gateway (default: this host's gateway.id)."),
            .init("--fleet", "The layer every gateway applies."),
            .init("--config <file>", "Configuration file for the broker (default: \(RunCommand.defaultConfigPath))."),
            .init("--wait <seconds>", "Longest wait for the broker and the gateways' answer (default: 10)."),
        ])

    enum Action: String { case get, set, unset, show }

    let action: Action
    let key: String?
    let value: String?
    let fleet: Bool
    let gateway: String?
    let configPath: String?
    let wait: Int

    init(_ arguments: inout Arguments) throws(UsageError) {
        configPath = try arguments.option("--config")
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
        if action != .get { patterns += fleet ? [topics.anyGatewayConfig, topics.anyGatewayConfigError] : [topics.gatewayConfig, topics.gatewayConfigError] }
        let session = BrokerClientSession(options: options, patterns: action == .show ? [topics.gatewayConfig] : patterns)
        defer { session.stop() }
        let deadline = ContinuousClock.now + .seconds(wait)
        guard session.connect(by: deadline) else {
            context.err("cannot reach the broker at \(options.endpoint): \(session.lastFailure ?? "timeout")\n")
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
            return change(retained, layerTopic: layerTopic, topics: topics, session: session, deadline: deadline, context)
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
        // Who should answer: this gateway, or every gateway that has an effective configuration.
        let expected: Set<String> =
            fleet
            ? Set(retained.keys.compactMap { topic -> String? in
                if case .gatewayConfig(let gw)? = topics.parse(topic) { return gw }
                return nil
            }) : [topics.gateway]
        let payload = layer.isEmpty ? "" : layer.json
        guard session.publish(layerTopic, payload: payload) else {
            context.err("could not publish \(layerTopic): \(session.lastFailure ?? "not connected")\n")
            return .unavailable
        }
        if expected.isEmpty {
            context.err("published \(layerTopic); no gateway has published an effective configuration to confirm it\n")
            return .success
        }
        let answers = session.answers(from: expected, topics: topics, by: deadline)
        var status = ExitCode.success
        for gw in expected.sorted() {
            switch answers[gw] {
            case .applied?: context.out("\(gw): applied\n")
            case .refused(let diagnostics)?:
                context.err("\(gw): refused: \(diagnostics)\n")
                status = .failure
            case nil:
                context.err("\(gw): no answer within \(wait) s\n")
                status = .failure
            }
        }
        return status
    }
}
