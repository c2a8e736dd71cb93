import MessageContract
import Platform

/// The TOPICS, SIGNALS, FILES and EXIT STATUS sections, row for row as docs/topics.md and
/// docs/service.md have them (ManPageTests compares the tables, with their Markdown removed).
extension ManPage {
    /// A row of docs/topics.md's topic table.
    struct Topic {
        var topic: String
        var payload: String
        var retained: String
        var qos: String

        init(_ topic: String, _ payload: String, _ retained: String, _ qos: String) {
            self.topic = topic
            self.payload = payload
            self.retained = retained
            self.qos = qos
        }
    }

    /// A row of a two-column table: a signal and its effect, a path and what it is.
    struct Item {
        var name: String
        var text: String

        init(_ name: String, _ text: String) {
            self.name = name
            self.text = text
        }
    }

    static func topicsSection() -> String {
        var out = ".SH TOPICS\n"
        out += prose(
            """
            <base> is mqtt.base_topic (default beacons) and <gw> is gateway.id. \
            A beacon is <uuid>/<major>/<minor> for iBeacon and AltBeacon, or eddystone/<namespace>/<instance> for \
            Eddystone-UID. \
            Per-beacon state, event and attributes need monitoring.per_beacon (on by default); region topics exist \
            for configured regions only.
            """)
        for row in topics {
            out += tagged(row.topic, "\(row.payload). Retained: \(row.retained). QoS: \(row.qos).")
        }
        out +=
            ".PP\n"
            + prose(
                """
                The locator publishes a retained <base>/<beacon>/location and a <base>/<beacon>/event on every change, \
                its own status on <base>/locators/<gateway.id>/status, \
                and the fit of gateways hearing each other, retained, on <base>/locators/<gateway.id>/calibration. \
                Home Assistant discovery adds retained <prefix>/<component>/<node_id>/<object_id>/config messages \
                (and, from the locator, a plain-text retained <base>/<beacon>/room), \
                and homeassistant.room_topic a feed for the mqtt_room sensor.
                """)
        return out
    }

    static func signalsSection() -> String {
        ".SH SIGNALS\n" + signals.map { tagged($0.name, $0.text) }.joined() + ".PP\n"
            + prose("locate stops the same way on SIGTERM and SIGINT (exit 0).")
    }

    static func filesSection() -> String {
        ".SH FILES\n" + files.map { ".TP\n.I \(escape($0.name))\n" + prose(sentence($0.text)) }.joined()
    }

    /// Every exit code the program has, in order, with its sysexits(3) name and meaning.
    static func exitStatusSection() -> String {
        ".SH EXIT STATUS\n"
            + exitCodes.map { code in
                let (name, meaning) = exitStatus(code)
                return tagged(String(code.rawValue), name == "—" ? meaning : "\(name): \(meaning)")
            }.joined()
    }

    /// Every `ExitCode`, in numeric order.
    static var exitCodes: [ExitCode] { (0...255).compactMap { ExitCode(rawValue: $0) } }

    /// The sysexits(3) name and the meaning of `code`; exhaustive, so a new code cannot go undocumented.
    static func exitStatus(_ code: ExitCode) -> (name: String, meaning: String) {
        switch code {
        case .success:
            return ("EX_OK", "Success; for run and locate a clean stop (signal, or the end of a replay or simulation).")
        case .failure: return ("—", "status found no gateway under <base>/gateways/.")
        case .usage: return ("EX_USAGE", "The command line was wrong.")
        case .dataError:
            return (
                "EX_DATAERR",
                "Input could not be decoded: a damaged capture (replay, run --replay; everything before the "
                    + "damage was processed), bytes decode cannot read, or a malformed line of survey's marks."
            )
        case .noInput:
            return (
                "EX_NOINPUT",
                "An input file (the capture of replay or run --replay, a walk's messages or marks for survey) cannot be "
                    + "read or is not a capture."
            )
        case .noUser: return ("EX_NOUSER", "check-config --as-user named a user that does not exist.")
        case .noPermission: return ("EX_NOPERM", "check-config --as-user needs root to read files as another user.")
        case .unavailable:
            return (
                "EX_UNAVAILABLE",
                "A required resource is unavailable: the broker at start with mqtt.require_broker_at_start (or "
                    + "for status), no Bluetooth in the kernel, no permission for raw HCI, no adapter for scan, "
                    + "record and adapters, an address metrics.listen cannot listen on, or libmicrohttpd (metrics.listen) "
                    + "not installed."
            )
        case .software: return ("EX_SOFTWARE", "An internal error (reserved; a bug if you see it, please report it).")
        case .ioError: return ("EX_IOERR", "record cannot create or write its file.")
        case .config:
            return (
                "EX_CONFIG",
                "Configuration error (file:line:column: key: what is wrong), a file it names (password, TLS, IRK) "
                    + "that cannot be read among them. The packaged unit does not restart after it."
            )
        }
    }

    /// A table cell as a sentence: with a full stop.
    static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? text : text + "."
    }

    /// Spelled by TopicTree, with placeholder levels.
    static let topics: [Topic] = {
        let t = TopicTree.pattern
        return [
            .init(t.beaconPattern(.state), "inside / outside (plain text)", "yes", "mqtt.qos (1)"),
            .init(t.beaconPattern(.event), "JSON enter / exit event", "no", "mqtt.qos"),
            .init(t.beaconPattern(.attributes), "JSON state, since, last_seen, name", "yes", "mqtt.qos"),
            .init(t.beaconPattern(.proximity), "JSON distance estimate", "no", "0"),
            .init(
                t.beaconPattern(.telemetry),
                "JSON battery, temperature, URL, TX power, interval (every telemetry.interval)",
                "yes", "mqtt.qos"),
            .init(t.devicePattern(.state), "inside / outside (plain text)", "yes", "mqtt.qos"),
            .init(
                t.devicePattern(.event), "JSON enter / exit event, with the device's current address", "no", "mqtt.qos"),
            .init(t.devicePattern(.attributes), "JSON state, since, last_seen, name", "yes", "mqtt.qos"),
            .init(t.devicePattern(.proximity), "JSON distance estimate, with the current address", "no", "0"),
            .init(t.region("<region>", .state), "inside / outside", "yes", "mqtt.qos"),
            .init(t.region("<region>", .event), "JSON enter / exit event", "no", "mqtt.qos"),
            .init(
                t.region("<region>", .attributes), "JSON state, since, last_seen, beacons_in_range", "yes",
                "mqtt.qos"),
            .init(t.region("<region>", .ranging), "JSON array, nearest first", "no", "0"),
            .init(
                t.gatewayStatus, "online / offline / degraded (plain text; offline is also the Last Will)",
                "yes", "mqtt.qos, at least 1"),
            .init(
                t.gatewayStats,
                "JSON health counters, 5 s after start, then every mqtt.stats_interval (none when it is 0)", "yes", "0"),
            .init(
                t.fleetConfigSet, "configuration layer for every gateway (JSON or YAML; empty removes it)", "yes",
                "1"),
            .init(t.gatewayConfigSet, "configuration layer for this gateway", "yes", "1"),
            .init(t.gatewayConfig, "JSON effective configuration: layers, sources, secrets redacted", "yes", "1"),
            .init(t.gatewayConfigError, "JSON refused layer: layer, source, digest, diagnostics, time", "no", "1"),
            .init(
                t.gatewayAdvertising,
                "JSON beacon the gateway advertises (advertise:), its gateway.position (x, y, z) and the radio's "
                    + "state; empty when neither is set", "yes", "mqtt.qos"),
        ]
    }()

    static let signals: [Item] = [
        .init(
            "SIGTERM, SIGINT",
            "Stop the source, publish what is queued for up to 5 s, publish offline, disconnect, exit 0."),
        .init(
            "SIGHUP",
            "Reload the configuration file. Region, beacon and device changes, monitoring, ranging, telemetry, "
                + "homeassistant, locator (the embedded locator starts, stops or takes its new settings), advertise "
                + "and log_level apply at once, and unchanged regions keep their state. A file that fails validation is logged (reload failed; keeping the running "
                + "configuration) and the old configuration keeps running. Changes to mqtt.* and gateway.id need a "
                + "restart (logged)."),
        .init(
            "SIGKILL",
            "No clean stop: the broker publishes the Last Will, a retained offline, once the keepalive runs "
                + "out or the socket closes."),
    ]

    static let files: [Item] = [
        .init("/usr/bin/beacon2mqtt", "the agent; the Swift runtime is linked in, so no toolchain is needed"),
        .init(
            "/etc/beacon2mqtt/beacon2mqtt.yaml", "the configuration (a conffile: upgrades never overwrite your edits)"),
        .init("/lib/systemd/system/beacon2mqtt.service", "the systemd unit"),
        .init(
            "/usr/share/man/man1/beacon2mqtt.1.gz",
            "man beacon2mqtt, generated by beacon2mqtt manpage from the same help text as --help"),
        .init("/usr/share/doc/beacon2mqtt/", "README, docs/, copyright, changelog"),
        .init("/var/lib/beacon2mqtt", "the service's state directory (systemd StateDirectory)"),
    ]
}
