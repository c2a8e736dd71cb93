import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// Fills a `Configuration` from a YAML tree, section by section, validating as it goes. Every key
/// is optional: what the file leaves out (or leaves empty) keeps its default.
struct ConfigDecoder {
    let file: String
    private(set) var warnings: [ConfigWarning] = []
    /// The files the configuration names, for the checks before a start.
    private(set) var namedFiles: [ConfigNamedFile] = []

    init(file: String) { self.file = file }

    mutating func decode(_ root: YAMLNode?, defaults: Configuration) throws(ConfigError) -> Configuration {
        var config = defaults
        if let root {
            let top = ConfigValue(node: root, path: .root, file: file)
            guard case .mapping = root.kind else {
                if root.isNull { return try validated(config) }
                throw top.error(
                    "the configuration must be a mapping of sections (gateway:, mqtt:, …), found \(root.kindDescription)"
                )
            }
            let m = try top.mapping()
            try m.read("log_level", into: &config.logLevel) { v throws(ConfigError) in try v.choice(LogLevel.self) }
            if let v = m["gateway"] { try gateway(v, into: &config.gateway) }
            if let v = m["scanner"] { try scanner(v, into: &config.bluetooth.scanner) }
            if let v = m["mqtt"] { try mqtt(v, into: &config.mqtt) }
            if let v = m["monitoring"] { try monitoring(v, into: &config.monitoring) }
            if let v = m["ranging"] { try ranging(v, into: &config.ranging) }
            if let v = m["regions"] { config.regions = try regions(v) }
            if let v = m["beacons"] { config.beacons = try beacons(v) }
            if let v = m["devices"] { config.devices = try devices(v) }
            config.locator.interval = config.ranging.interval
            if let v = m["locator"] { try locator(v, into: &config.locator) }
            if let v = m["homeassistant"] { try homeAssistant(v, into: &config.homeAssistant) }
            if let v = m["telemetry"] { try telemetry(v, into: &config.telemetry) }
            if let v = m["remote_config"] {
                try v.mapping().read("enabled", into: &config.remoteConfig.enabled) { v throws(ConfigError) in
                    try v.bool()
                }
            }
            if let v = m["metrics"] { try metrics(v, into: &config.metrics) }
            if let v = m["advertise"] {
                config.bluetooth.advertise = try advertise(v, scanner: config.bluetooth.scanner)
            }
            if let v = m["compat"] { config.compat = try compat(v) }
        }
        return try validated(config)
    }

    /// The gateway id may come from the host name rather than the file, so it is checked last.
    private func validated(_ config: Configuration) throws(ConfigError) -> Configuration {
        if let problem = TopicLevel.problem(config.gateway.id) {
            throw ConfigError(
                file: file, line: 0, column: 0, key: "gateway.id",
                message: "the host name '\(config.gateway.id)' cannot be a topic level (it \(problem)); set gateway.id")
        }
        return config
    }

    /// `compat`: one format's name, or a list of them.
    private func compat(_ v: ConfigValue) throws(ConfigError) -> [CompatFormat] {
        guard case .sequence = v.node.kind else { return v.node.isNull ? [] : [try v.choice(CompatFormat.self)] }
        var formats: [CompatFormat] = []
        for item in try v.list() {
            let format = try item.choice(CompatFormat.self)
            if !formats.contains(format) { formats.append(format) }
        }
        return formats
    }

    mutating func warn(_ warning: ConfigWarning) { warnings.append(warning) }

    /// Notes that the key at `v` names the file `path`.
    mutating func named(_ path: String, _ kind: ConfigNamedFile.Kind, at v: ConfigValue) {
        namedFiles.append(
            ConfigNamedFile(
                path: path, kind: kind, file: v.node.source ?? file, line: v.node.line, column: v.node.column,
                key: v.path.description))
    }

    private func gateway(_ value: ConfigValue, into g: inout GatewaySettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("id", into: &g.id) { v throws(ConfigError) in try Self.topicLevel(v) }
        try m.readOptional("floor", into: &g.floor) { v throws(ConfigError) in try v.nonEmptyText() }
        try m.readOptional("room", into: &g.room) { v throws(ConfigError) in try v.nonEmptyText() }
        try m.read("rssi_offset", into: &g.rssiOffset) { v throws(ConfigError) in try v.number(in: -30...30) }
        try m.readOptional("position", into: &g.position) { v throws(ConfigError) in try Self.position(v) }
    }

    /// `gateway.position`: `{x, y, z}` in metres; `z` (height above the floor) defaults to 0.
    static func position(_ value: ConfigValue) throws(ConfigError) -> SitePosition {
        let m = try value.mapping()
        var x: Double?
        var y: Double?
        var z = 0.0
        let range = -SitePosition.limit...SitePosition.limit
        try m.readOptional("x", into: &x) { v throws(ConfigError) in try v.number(in: range) }
        try m.readOptional("y", into: &y) { v throws(ConfigError) in try v.number(in: range) }
        try m.read("z", into: &z) { v throws(ConfigError) in try v.number(in: range) }
        guard let x else { throw m.error("x", locatedAt: ["y", "z"], "missing; a position needs x and y in metres") }
        guard let y else { throw m.error("y", locatedAt: ["x", "z"], "missing; a position needs x and y in metres") }
        return SitePosition(x: x, y: y, z: z)
    }

    /// LE_Scan_Interval and LE_Scan_Window: 0x0004…0x4000 × 0.625 ms (Core Spec Vol 4, Part E, §7.8.10).
    static let scanTimeRange = TimeSpan(microseconds: 2_500)...TimeSpan(microseconds: 10_240_000)

    /// scanner.read_interval: `adaptive`, or up to a quarter second, which the socket's receive buffer is sized for.
    static let readIntervalRange = TimeSpan.zero...TimeSpan.milliseconds(250)

    private mutating func scanner(_ value: ConfigValue, into s: inout ScannerSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("adapter", into: &s.adapter) { v throws(ConfigError) in try Self.adapter(v) }
        try m.read("mode", into: &s.mode) { v throws(ConfigError) in try v.choice(ScannerSettings.Mode.self) }
        try m.read("interval", into: &s.interval) { v throws(ConfigError) in try v.duration(in: Self.scanTimeRange) }
        try m.read("window", into: &s.window) { v throws(ConfigError) in try v.duration(in: Self.scanTimeRange) }
        try m.read("watchdog", into: &s.watchdog) { v throws(ConfigError) in
            try v.duration(atLeast: .seconds(1), orOff: true)
        }
        try m.read("read_interval", into: &s.readInterval) { v throws(ConfigError) in
            let text = try v.text()
            if text == "adaptive" { return nil }
            guard case .success = DurationText.parse(text) else {
                throw v.error("adaptive, or a duration such as 50ms; found '\(text)'")
            }
            return try v.duration(in: Self.readIntervalRange)
        }
        for key in ["interval", "window"] {
            let span = key == "interval" ? s.interval : s.window
            if span.microseconds % 625 != 0, let v = m[key] {
                warn(v.warning("is not a multiple of 0.625ms, the controller's unit; it will be rounded"))
            }
        }
        if s.window > s.interval {
            throw m.error(
                "window", locatedAt: ["window", "interval"],
                "\(DurationText.format(s.window)) is longer than scanner.interval (\(DurationText.format(s.interval))); "
                    + "the window must fit in the interval")
        }
    }

    private func monitoring(_ value: ConfigValue, into s: inout MonitoringSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("exit_timeout", into: &s.exitTimeout) { v throws(ConfigError) in try v.duration(atLeast: .seconds(1))
        }
        try m.read("restore_max_age", into: &s.restoreMaxAge) { v throws(ConfigError) in try v.duration() }
        try m.read("max_tracked", into: &s.maxTracked) { v throws(ConfigError) in try v.integer(atLeast: 16) }
        try m.read("per_beacon", into: &s.perBeacon) { v throws(ConfigError) in try v.bool() }
        try m.read("attributes_refresh", into: &s.attributesRefresh) { v throws(ConfigError) in
            try v.duration(atLeast: .seconds(1), orOff: true)
        }
    }

    /// `auto`, `hciN`, or a controller address (stored lowercase). N is the kernel's 16-bit index,
    /// as the scanner reads it, so no value passes here that `run` then refuses.
    static func adapter(_ v: ConfigValue) throws(ConfigError) -> String {
        let text = try v.text()
        if text == "auto" { return text }
        let index = text.dropFirst(3)
        if text.hasPrefix("hci"), !index.isEmpty, index.allSatisfy({ $0.isASCII && $0.isNumber }), UInt16(index) != nil
        {
            return text
        }
        if let address = BluetoothAddress(text) { return address.description }
        throw v.error("must be auto, hciN (e.g. hci0) or a controller address like 00:1a:7d:da:71:13, found '\(text)'")
    }

    static func topicLevel(_ v: ConfigValue) throws(ConfigError) -> String {
        let text = try v.text()
        if let problem = TopicLevel.problem(text) { throw v.error("\(problem) (it is an MQTT topic level)") }
        return text
    }
}
