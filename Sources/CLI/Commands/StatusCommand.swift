import BeaconConfig
import BeaconCore
import BeaconWire
import Glibc
import MQTTTransport
import MessageContract
import Platform
import Settings
import Vocabulary

/// `beacon2mqtt status`: asks the broker what every gateway last announced: the retained `status`
/// and `stats` topics under `<base>/gateways/`. Uses the configuration's broker, TLS and
/// credentials, with a client id of its own so it never displaces a running agent.
struct StatusCommand: Command {
    static let help = CommandHelp(
        name: "status",
        abstract: "Show the status and stats every gateway left on the broker.",
        usage: "beacon2mqtt status [--config <file>] [--wait <seconds>]",
        discussion: """
            Reads the retained <base>/gateways/+/status and <base>/gateways/+/stats topics and prints one
            line per gateway. UPTIME and the counters are as of the gateway's last stats message; AGE is
            how long ago that was (one word per column, for scripts). Exit codes: 0 gateways found, 1 none found, 69 broker unreachable, 78
            configuration error.
            """,
        options: [
            .init("--config <file>", "Configuration file (default: \(RunCommand.defaultConfigPath))."),
            .init("--wait <seconds>", "Longest wait for the broker and its retained messages (default: 3)."),
        ])

    let configPath: String?
    let wait: Int

    init(_ arguments: inout Arguments) throws(UsageError) {
        configPath = try arguments.option("--config")
        wait = try arguments.intOption("--wait", in: 1...60) ?? 3
        try arguments.finish()
    }

    func run(_ context: CommandContext) -> ExitCode {
        let configuration: Configuration
        var options: MQTTConnectionOptions
        switch BrokerClientConfiguration.load(configPath, purpose: "status") {
        case .success(let loaded): (configuration, options) = loaded
        case .failure(let error):
            context.err("\(error)\n")
            return .config
        }
        options.cleanSession = true
        let base = configuration.mqtt.baseTopic
        let topics = TopicTree(base: base)
        let session = BrokerClientSession(
            options: options, patterns: [topics.anyGatewayStatus, topics.anyGatewayStats])
        defer { session.stop() }
        let deadline = ContinuousClock.now + .seconds(wait)
        guard session.connect(by: deadline) else {
            context.err(
                "cannot reach the broker at \(BrokerClientSession.brokers(options)): \(session.lastFailure ?? "timeout")\n"
            )
            return .unavailable
        }
        let retained = session.retained(by: deadline)
        let rows = Self.rows(retained, base: base, now: WallClock.now())
        guard !rows.isEmpty else {
            context.err("no gateway has announced itself under \(topics.gateways) on \(session.endpoint)\n")
            return .failure
        }
        context.out(Self.table(rows))
        return .success
    }

    /// One line per gateway: its status, the fields of its last stats message and that message's
    /// age at `now` (the figures are as of then: a stats message comes every `stats_interval`).
    static func rows(_ retained: [String: String], base: String, now: Timestamp) -> [[String]] {
        var gateways: [String: (status: String?, stats: JSONObject?)] = [:]
        let topics = TopicTree(base: base)
        for (topic, payload) in retained {
            switch topics.parse(topic) {
            case .gatewayStatus(let gateway)?:
                gateways[gateway, default: (nil, nil)].status = payload
            case .gatewayStats(let gateway)?:
                var entry = gateways[gateway] ?? (nil, nil)
                if let object = try? JSONObject(payload) { entry.stats = object }
                gateways[gateway] = entry
            default:
                continue
            }
        }
        return gateways.keys.sorted().map { gateway in
            let entry = gateways[gateway]!
            func field(_ key: String) -> String {
                switch entry.stats?[key] {
                case .number(let n)?: return n
                case .string(let s)?: return s
                case .bool(let b)?: return b ? "1" : "0"  // as NSNumber printed them
                default: return "-"
                }
            }
            let uptime: String
            if case .number(let n)? = entry.stats?["uptime"], let seconds = Double(n) {
                uptime = duration(Int(seconds))
            } else {
                uptime = "-"
            }
            let age: String
            if case .string(let text)? = entry.stats?["timestamp"],
                let sent = RetainedAttributes.timestamp(rfc3339: text)
            {
                age = duration(max(Int((now - sent).seconds.rounded(.down)), 0))
            } else {
                age = "-"
            }
            return [
                gateway, entry.status ?? "-", uptime, age, field("reports_per_s"), field("beacons_tracked"),
                field("messages_published"), field("queued"), field("dropped"), field("reconnects"), field("degraded"),
            ]
        }
    }

    /// `3d04h`, `1h02m`, `5m07s`, `42s`.
    static func duration(_ seconds: Int) -> String {
        let (d, h, m, s) = (seconds / 86400, seconds / 3600 % 24, seconds / 60 % 60, seconds % 60)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        if d > 0 { return "\(d)d\(two(h))h" }
        if h > 0 { return "\(h)h\(two(m))m" }
        if m > 0 { return "\(m)m\(two(s))s" }
        return "\(s)s"
    }

    static func table(_ rows: [[String]]) -> String {
        let header = [
            "GATEWAY", "STATUS", "UPTIME", "AGE", "REPORTS/S", "BEACONS", "PUBLISHED", "QUEUED", "DROPPED",
            "RECONNECTS",
            "DEGRADED",
        ]
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }.joined()
        }.joined(separator: "\n") + "\n"
    }
}
