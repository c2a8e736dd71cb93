import BeaconConfig
import BeaconCore
import BeaconWire
import CMosquitto
import Foundation

/// `beacon2mqtt status [--config F]`: one table of every gateway under `<base>/gateways/`, from
/// their retained `status` (online / offline / degraded) and `stats` JSON. One command to see the
/// whole building.
///
/// The session is read-only: a throwaway client id, a clean session, no Last Will and nothing
/// published, so looking never changes what the broker holds. (The agent's `MosquittoClient`
/// always announces availability on the gateway's status topic, which a viewer must not do.)
struct StatusCommand: Command {
    static let help = CommandHelp(
        name: "status",
        abstract: "Show the retained status and stats of every gateway on the broker.",
        usage: "beacon2mqtt status [--config <file>] [--timeout <seconds>]",
        discussion:
            "Connects to the broker of the configuration and prints one row per gateway under <base>/gateways/.\n"
            + "Exits 69 when the broker cannot be reached.",
        options: [
            .init(
                "--config <file>", "The configuration naming the broker. Default: /etc/beacon2mqtt/beacon2mqtt.yaml."),
            .init("--timeout <seconds>", "Longest wait for the broker. Default: 5."),
        ])

    static let statsColumns: [(title: String, key: String)] = [
        ("UPTIME", "uptime"), ("REPORTS/S", "reports_per_s"), ("BEACONS", "beacons_tracked"),
        ("PUBLISHED", "messages_published"), ("QUEUED", "queued"), ("DROPPED", "dropped"),
        ("MALFORMED", "malformed"), ("RECONNECTS", "reconnects"),
    ]

    let configPath: String
    let timeout: Int

    init(_ arguments: inout Arguments) throws(UsageError) {
        configPath = try arguments.option("--config") ?? "/etc/beacon2mqtt/beacon2mqtt.yaml"
        timeout = try arguments.intOption("--timeout", in: 1...300) ?? 5
        try arguments.finish()
    }

    func run(_ context: CommandContext) -> ExitCode {
        let config: Configuration
        do {
            config = try ConfigLoader.load(path: configPath, defaultGatewayID: HostName.gatewayID())
        } catch {
            context.err("\(error)\n")
            return .config
        }
        let base = config.mqtt.baseTopic
        let retained: [String: String]
        do {
            retained = try RetainedReader.read(
                config.mqtt, patterns: ["\(base)/gateways/+/status", "\(base)/gateways/+/stats"],
                timeout: .seconds(timeout))
        } catch {
            context.err("Error: \(error.description)\n")
            return error.isConfiguration ? .config : .unavailable
        }
        let broker = "\(config.mqtt.tls.enabled ? "mqtts" : "mqtt")://\(config.mqtt.host):\(config.mqtt.port)"
        context.out(Self.table(Self.rows(retained, baseTopic: base), broker: broker, now: Date()))
        return .success
    }

    /// One gateway as its retained messages describe it.
    struct Row: Equatable {
        var gateway: String
        var status: String?
        var stats: [String: String] = [:]
        var statsTime: Date?
    }

    /// Groups `<base>/gateways/<gw>/{status,stats}` by gateway, sorted by gateway id.
    static func rows(_ retained: [String: String], baseTopic: String) -> [Row] {
        let prefix = baseTopic + "/gateways/"
        var byGateway: [String: Row] = [:]
        for (topic, payload) in retained where topic.hasPrefix(prefix) {
            let levels = topic.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            guard levels.count == 2, !payload.isEmpty else { continue }  // empty = retained value cleared
            let gateway = String(levels[0])
            var row = byGateway[gateway] ?? Row(gateway: gateway)
            switch levels[1] {
            case "status": row.status = payload
            case "stats":
                guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else {
                    row.stats["error"] = "unreadable stats"
                    break
                }
                for (key, value) in object { row.stats[key] = Self.text(value) }
                row.statsTime = (object["timestamp"] as? String).flatMap(Self.parseTime)
            default: continue
            }
            byGateway[gateway] = row
        }
        return byGateway.values.sorted { $0.gateway < $1.gateway }
    }

    /// The table: a title line, then one aligned row per gateway; numbers right-aligned.
    static func table(_ rows: [Row], broker: String, now: Date) -> String {
        let header = ["GATEWAY", "STATUS"] + statsColumns.map(\.title) + ["STATS AGE"]
        let lines = rows.map { row -> [String] in
            let age = row.statsTime.map { "\(max(0, Int(now.timeIntervalSince($0).rounded())))s" } ?? "-"
            return [row.gateway, row.status ?? "-"]
                + statsColumns.map { column in
                    column.key == "uptime"
                        ? row.stats["uptime"].flatMap(Int.init).map(duration) ?? "-" : row.stats[column.key] ?? "-"
                } + [age]
        }
        var widths = header.map(\.count)
        for line in lines { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func render(_ cells: [String]) -> String {
            var out = ""
            for (i, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                out += (i < 2 ? cell + pad : pad + cell) + (i < cells.count - 1 ? "  " : "")
            }
            while out.hasSuffix(" ") { out.removeLast() }
            return out + "\n"
        }
        var out = "Gateways on \(broker): \(rows.count)\n\n" + render(header)
        for line in lines { out += render(line) }
        if rows.isEmpty { out += "(no gateway has published a status yet)\n" }
        return out
    }

    /// `93784` → `1d2h3m`; an uptime reads better than a second count.
    static func duration(_ seconds: Int) -> String {
        let d = seconds / 86400
        let h = seconds % 86400 / 3600
        let m = seconds % 3600 / 60
        let s = seconds % 60
        if d > 0 { return "\(d)d\(h)h\(m)m" }
        if h > 0 { return "\(h)h\(m)m" }
        if m > 0 { return "\(m)m\(s)s" }
        return "\(s)s"
    }

    private static func text(_ value: Any) -> String {
        if let number = value as? NSNumber, !(value is Bool) {
            let double = number.doubleValue
            return double == double.rounded() && abs(double) < 1e15
                ? String(Int64(double)) : JSONWriter.format(double, decimals: 1)
        }
        return "\(value)"
    }

    private static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

extension StatusCommand {
    struct ReadError: Error {
        var description: String
        /// A problem with the configuration (password file) rather than with the broker.
        var isConfiguration = false
    }

    /// A one-shot, single-threaded libmosquitto session that subscribes, gathers the retained
    /// messages the broker sends right after the SUBACK, and disconnects. Callbacks run inside
    /// `mosquitto_loop` on the calling thread and reach `Session` through an `Unmanaged` pointer.
    enum RetainedReader {
        final class Session {
            var connected = false
            var refused: String?
            var patterns: [String] = []
            var pendingSubscriptions = 0
            var lastActivity = ContinuousClock.now
            var messages: [String: String] = [:]
        }

        /// Retained payloads by topic. Finishes 300 ms after the last SUBACK or message (the broker
        /// sends retained messages right after the SUBACK), or fails after `timeout`.
        static func read(_ mqtt: MQTTSettings, patterns: [String], timeout: Duration) throws(ReadError) -> [String:
            String]
        {
            _ = mosquitto_lib_init()
            let session = Session()
            session.patterns = patterns
            let box = Unmanaged.passRetained(session)
            defer { box.release() }
            guard let mosq = mosquitto_new("beacon2mqtt-status-\(getpid())", true, box.toOpaque()) else {
                throw ReadError(description: "cannot create an MQTT client")
            }
            defer { mosquitto_destroy(mosq) }
            let version = mqtt.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
            _ = mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, version)
            if let username = mqtt.username {
                var password: String?
                if let file = mqtt.passwordFile {
                    guard let data = FileManager.default.contents(atPath: file) else {
                        throw ReadError(description: "mqtt.password_file: cannot read '\(file)'", isConfiguration: true)
                    }
                    password = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
                }
                _ = mosquitto_username_pw_set(mosq, username, password)
            }
            if mqtt.tls.enabled {
                let tls = mqtt.tls
                if tls.caFile == nil, tls.caPath == nil { _ = mosquitto_int_option(mosq, MOSQ_OPT_TLS_USE_OS_CERTS, 1) }
                _ = mosquitto_tls_set(mosq, tls.caFile, tls.caPath, tls.certFile, tls.keyFile, nil)
                _ = mosquitto_tls_opts_set(mosq, 1, tls.version, nil)
                if tls.insecure { _ = mosquitto_tls_insecure_set(mosq, true) }
            }
            mosquitto_connect_callback_set(mosq) { mosq, obj, rc in
                let session = Unmanaged<Session>.fromOpaque(obj!).takeUnretainedValue()
                guard rc == 0 else {
                    session.refused = String(cString: mosquitto_connack_string(rc))
                    return
                }
                session.connected = true
                for pattern in session.patterns where mosquitto_subscribe(mosq, nil, pattern, 0) == 0 {
                    session.pendingSubscriptions += 1
                }
            }
            mosquitto_subscribe_callback_set(mosq) { _, obj, _, _, _ in
                let session = Unmanaged<Session>.fromOpaque(obj!).takeUnretainedValue()
                session.pendingSubscriptions -= 1
                session.lastActivity = .now
            }
            mosquitto_message_callback_set(mosq) { _, obj, message in
                guard let m = message?.pointee, let topic = m.topic else { return }
                let session = Unmanaged<Session>.fromOpaque(obj!).takeUnretainedValue()
                let payload = m.payload.map { UnsafeRawBufferPointer(start: $0, count: Int(m.payloadlen)) }
                session.messages[String(cString: topic)] = payload.map { String(decoding: $0, as: UTF8.self) } ?? ""
                session.lastActivity = .now
            }
            let endpoint = "\(mqtt.tls.enabled ? "mqtts" : "mqtt")://\(mqtt.host):\(mqtt.port)"
            let keepalive = Int32(max(5, mqtt.keepalive.seconds.rounded()))
            let rc = mosquitto_connect(mosq, mqtt.host, Int32(mqtt.port), keepalive)
            guard rc == 0 else {
                throw ReadError(description: "cannot reach the broker at \(endpoint): \(describe(rc))")
            }
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                let rc = mosquitto_loop(mosq, 50, 1)
                if let refused = session.refused {
                    throw ReadError(description: "the broker at \(endpoint) refused the connection: \(refused)")
                }
                if rc != 0 { throw ReadError(description: "lost the broker at \(endpoint): \(describe(rc))") }
                if session.connected, session.pendingSubscriptions == 0,
                    ContinuousClock.now - session.lastActivity > .milliseconds(300)
                {
                    _ = mosquitto_disconnect(mosq)
                    return session.messages
                }
            }
            throw ReadError(description: "no answer from the broker at \(endpoint) within \(timeout)")
        }

        private static func describe(_ rc: Int32) -> String {
            rc == Int32(MOSQ_ERR_ERRNO.rawValue)
                ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
        }
    }
}
