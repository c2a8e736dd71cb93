import BeaconCore
import BeaconWire
import Settings
import Vocabulary

extension ConfigDecoder {
    mutating func mqtt(_ value: ConfigValue, into s: inout MQTTSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("host", into: &s.host) { v throws(ConfigError) in try v.nonEmptyText() }
        try m.read("port", into: &s.port) { v throws(ConfigError) in try v.integer(in: 1...65535) }
        try m.read("failover", into: &s.failover) { v throws(ConfigError) in
            var brokers: [MQTTSettings.Failover] = []
            for item in try v.list() { brokers.append(try Self.failoverBroker(item)) }
            return brokers
        }
        try m.read("base_topic", into: &s.baseTopic) { v throws(ConfigError) in
            let text = try v.text()
            if let problem = TopicLevel.prefixProblem(text) { throw v.error(problem) }
            return text
        }
        try m.readOptional("client_id", into: &s.clientID) { v throws(ConfigError) in try v.nonEmptyText() }
        try m.readOptional("username", into: &s.credentials.username) { v throws(ConfigError) in try v.nonEmptyText() }
        try m.readOptional("password_file", into: &s.credentials.passwordFile) { v throws(ConfigError) in
            try v.nonEmptyText()
        }
        if let v = m["tls"] { try tls(v, into: &s.tls) }
        try m.read("qos", into: &s.qos) { v throws(ConfigError) in try v.integer(in: 0...2) }
        try m.read("keepalive", into: &s.keepalive) { v throws(ConfigError) in
            try v.duration(in: .seconds(5)...(.seconds(3600)))
        }
        try m.read("protocol", into: &s.protocolVersion) { v throws(ConfigError) in try Self.protocolVersion(v) }
        try m.read("clean_session", into: &s.cleanSession) { v throws(ConfigError) in try v.bool() }
        try m.read("stats_interval", into: &s.statsInterval) { v throws(ConfigError) in
            try v.duration(atLeast: .seconds(1), orOff: true)
        }
        try m.read("outbox_limit", into: &s.outboxLimit) { v throws(ConfigError) in try v.integer(atLeast: 100) }
        try m.read("require_broker_at_start", into: &s.requireBrokerAtStart) { v throws(ConfigError) in try v.bool() }
        try m.read("reconnect_min", into: &s.reconnect.minimum) { v throws(ConfigError) in
            try v.duration(atLeast: .milliseconds(100))
        }
        try m.read("reconnect_max", into: &s.reconnect.maximum) { v throws(ConfigError) in
            try v.duration(atLeast: .milliseconds(100))
        }
        if s.reconnect.minimum > s.reconnect.maximum {
            throw m.error(
                "reconnect_max", locatedAt: ["reconnect_max", "reconnect_min"],
                "\(DurationText.format(s.reconnect.maximum)) is shorter than mqtt.reconnect_min (\(DurationText.format(s.reconnect.minimum)))"
            )
        }
        if let id = s.clientID, let v = m["client_id"],
            id.utf8.count > 23 || !id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        {
            warn(
                v.warning(
                    "brokers need only accept 1 to 23 letters and digits (MQTT 3.1.1 §3.1.3.1); some may refuse it"))
        }
        if let file = s.credentials.passwordFile, let v = m["password_file"] {
            // The broker takes a password only with a user name, so run cannot start without one.
            guard s.credentials.username != nil else { throw v.error("needs mqtt.username") }
            named(file, .secret, at: v)
        }
    }

    /// MQTT 3.1.1 (protocol level 4) or MQTT 5.0 (level 5); `311` and a quoted `"5"` are accepted.
    static func protocolVersion(_ v: ConfigValue) throws(ConfigError) -> MQTTSettings.ProtocolVersion {
        let text = try v.text()
        switch text {
        case "3.1.1", "311": return .v311
        case "5": return .v5
        default: throw v.error("must be 3.1.1 or 5, found '\(text)'")
        }
    }

    private mutating func tls(_ value: ConfigValue, into s: inout TLSSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("enabled", into: &s.enabled) { v throws(ConfigError) in try v.bool() }
        for (key, path) in [
            ("ca_file", \TLSSettings.caFile), ("ca_path", \.caPath), ("cert_file", \.certFile), ("key_file", \.keyFile),
        ] {
            try m.readOptional(key, into: &s[keyPath: path]) { v throws(ConfigError) in try v.nonEmptyText() }
        }
        try m.readOptional("version", into: &s.version) { v throws(ConfigError) in
            let text = try v.text()
            guard text == "tlsv1.2" || text == "tlsv1.3" else {
                throw v.error("must be tlsv1.2 or tlsv1.3, found '\(text)'")
            }
            return text
        }
        try m.read("insecure", into: &s.insecure) { v throws(ConfigError) in try v.bool() }
        if (s.certFile == nil) != (s.keyFile == nil) {
            let (missing, present) = s.certFile == nil ? ("cert_file", "key_file") : ("key_file", "cert_file")
            throw m.error(
                missing, locatedAt: [present],
                "is required with mqtt.tls.\(present) (a client certificate needs its key)")
        }
        if s.insecure, let v = m["insecure"] {
            warn(v.warning("the broker's certificate host name is not checked; anyone on the path can impersonate it"))
        }
        if s.enabled {
            let kinds: [(String, ConfigNamedFile.Kind)] = [
                ("ca_file", .certificate), ("ca_path", .directory), ("cert_file", .certificate),
                ("key_file", .privateKey),
            ]
            for (key, kind) in kinds {
                if let v = m[key], !v.isNull, let path = try? v.nonEmptyText() { named(path, kind, at: v) }
            }
        } else {
            for key in ["ca_file", "ca_path", "cert_file", "key_file", "version"] {
                if let v = m[key], !v.isNull { warn(v.warning("has no effect while mqtt.tls.enabled is false")) }
            }
        }
    }
}

extension ConfigDecoder {
    /// `host` or `host:port` (an IPv6 address in brackets: `[::1]:1883`).
    static func failoverBroker(_ v: ConfigValue) throws(ConfigError) -> MQTTSettings.Failover {
        let text = try v.nonEmptyText()
        let bad = v.error("'\(text)' is not host or host:port (an IPv6 address in brackets: [::1]:1883)")
        var host = Substring(text)
        var portText: Substring?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw bad }
                portText = rest.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            guard text.firstIndex(of: ":") == text.lastIndex(of: ":") else { throw bad }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { " /[]".contains($0) }) else { throw bad }
        guard let portText else { return MQTTSettings.Failover(host: String(host)) }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw v.error("'\(text)': the port must be a number from 1 to 65535")
        }
        return MQTTSettings.Failover(host: String(host), port: port)
    }
}
