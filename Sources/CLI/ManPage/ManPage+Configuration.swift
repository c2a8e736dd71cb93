/// The CONFIGURATION section: the file's rules, then every key with its type, default and meaning,
/// as docs/configuration.md's reference table has them (ManPageTests compares the two, and checks
/// that every key the loader accepts is listed).
extension ManPage {
    struct Setting {
        var key: String
        var type: String
        var defaultValue: String
        var meaning: String

        init(_ key: String, _ type: String, _ defaultValue: String, _ meaning: String) {
            self.key = key
            self.type = type
            self.defaultValue = defaultValue
            self.meaning = meaning
        }

        /// The section it belongs to: `mqtt` for `mqtt.tls.ca_file`, `regions` for `regions[].name`,
        /// nothing for a top-level key such as `log_level`.
        var group: Substring {
            let section = key.prefix { $0 != "." && $0 != "[" }
            return section.count == key.count ? "" : section
        }
    }

    static func configurationSection() -> String {
        var out = ".SH CONFIGURATION\n"
        out += prose(
            """
            beacon2mqtt reads one YAML file, by default /etc/beacon2mqtt/beacon2mqtt.yaml. \
            Every key is optional, and an empty file means all defaults. \
            The shipped file shows every key with its default and a one-line comment.
            """)
        out +=
            ".PP\n"
            + prose(
                """
                Errors name the file, line, column and key path, for example \
                /etc/beacon2mqtt/beacon2mqtt.yaml:7:9: mqtt.port: must be between 1 and 65535, found 70000. \
                Unknown keys, a key given twice, quoted numbers and durations without a unit are errors. \
                beacon2mqtt check-config FILE prints the first error and exits 78; run, replay, locate, status, scan and \
                record exit 78 on the same errors.
                """)
        out +=
            ".PP\n"
            + prose(
                """
                Durations are a number and a unit: 250us, 500ms, 10s, 1.5s, 2m, 1h, or parts run together (1m30s); \
                0 alone means off where a key allows it. \
                Booleans are true/false, yes/no or on/off. \
                An empty value keeps the default. \
                SIGHUP reloads the file (regions, beacons, devices, monitoring, ranging, telemetry, homeassistant, \
                locator, advertise and log_level at once); mqtt.*, gateway.id, scanner.* and metrics need a restart.
                """)
        var group: Substring = ""
        for setting in settings {
            if setting.group != group {
                group = setting.group
                out += ".SS \(escape(String(group)))\n"
            }
            var text = setting.type.isEmpty ? "" : "\(setting.type). "
            if setting.defaultValue != "—" { text += "Default: \(setting.defaultValue). " }
            out += tagged(setting.key, text + setting.meaning)
        }
        return out
    }

    /// docs/configuration.md's reference table, with its Markdown (backticks, links, bold) removed.
    static let settings: [Setting] = [
        .init("log_level", "trace debug info notice warning error critical", "info", "Least severe message logged."),
        .init("gateway.id", "topic level", "host name", "This gateway's id in topics."),
        .init("gateway.floor", "text", "none", "Floor, copied into messages."),
        .init("gateway.room", "text", "none", "Room, copied into messages."),
        .init(
            "gateway.rssi_offset", "number, −30…30", "0",
            "dB added to every RSSI this gateway measures, to calibrate gateways that disagree."),
        .init(
            "gateway.position.x", "number, metres", "none",
            "Where this gateway stands, on the site's own axes: with y, required once position is set; see "
                + "locator.md."),
        .init("gateway.position.y", "number, metres", "none", "Position across the floor, with x."),
        .init("gateway.position.z", "number, metres", "0", "Height of the gateway."),
        .init(
            "scanner.adapter", "auto, hciN, or aa:bb:cc:dd:ee:ff", "auto",
            "Bluetooth controller; by address it survives re-numbering."),
        .init(
            "scanner.mode", "passive active listen", "passive",
            "active also requests scan responses; listen reads reports and leaves scanning to another "
                + "program."),
        .init(
            "scanner.interval", "duration, 2.5ms…10.24s", "100ms",
            "LE scan interval (Core Spec Vol 4, Part E, §7.8.10)."),
        .init(
            "scanner.window", "duration, 2.5ms…10.24s, ≤ interval", "100ms",
            "LE scan window; equal to the interval scans continuously."),
        .init(
            "scanner.watchdog", "duration, 0 or ≥ 1s", "30s",
            "No report for this long re-enables scanning, then resets the controller; 0 is off."),
        .init(
            "scanner.read_interval", "adaptive, or duration 0…250ms", "adaptive",
            "How long the adapter is left to queue reports after a read emptied it; each report keeps the "
                + "time the kernel received it. adaptive reads each report as it arrives while fewer than 100 "
                + "a second come, and from 100 a second holds until about 512 are due, at most 200ms (at once "
                + "again below 50 a second); messages then go out up to 200ms later. A duration always holds "
                + "that long; 0 always reads at once. A run --replay from a pipe is read the same way (see "
                + "scanning.md)."),
        .init("mqtt.host", "text", "localhost", "Broker host name or address."),
        .init("mqtt.port", "1…65535", "1883", "Broker port (8883 is usual with TLS)."),
        .init(
            "mqtt.failover", "list of host[:port]", "none",
            "Further brokers, host or host:port (port: mqtt.port; IPv6 in brackets, [::1]:1883), tried after "
                + "mqtt.host. A failed connect or an ended session moves to the next broker (after the last, "
                + "mqtt.host again), with the reconnect_min…reconnect_max backoff between attempts; the agent "
                + "stays on a broker while it works. Same credentials and TLS for all (see topics.md)."),
        .init("mqtt.base_topic", "topic prefix", "beacons", "Prefix of every topic."),
        .init(
            "mqtt.client_id", "text", "gateway id",
            "MQTT client id. Two agents with one id take turns kicking each other off."),
        .init("mqtt.username", "text", "none", "User name; no authentication without it."),
        .init(
            "mqtt.password_file", "path", "none",
            "File whose first line is the password, so it never appears in the YAML, in argv or in a log "
                + "line; needs mqtt.username. run, locate and check-config warn when it (or the TLS key) is "
                + "world-readable. A password key is refused."),
        .init("mqtt.tls.enabled", "boolean", "false", "Connect with TLS."),
        .init("mqtt.tls.ca_file", "path", "none", "CA certificate(s) to verify the broker; none: the system's."),
        .init("mqtt.tls.ca_path", "path", "none", "Directory of CA certificates."),
        .init("mqtt.tls.cert_file", "path", "none", "Client certificate (needs key_file)."),
        .init("mqtt.tls.key_file", "path", "none", "Client key (needs cert_file)."),
        .init("mqtt.tls.version", "tlsv1.2 tlsv1.3", "none", "TLS version; none: OpenSSL's choice."),
        .init(
            "mqtt.tls.insecure", "boolean", "false",
            "Skip the broker host-name check (warned at start; testing only)."),
        .init(
            "mqtt.qos", "0, 1, 2", "1",
            "QoS of enter/exit events and retained state; proximity and ranging always use 0."),
        .init(
            "mqtt.keepalive", "duration, 5s…1h", "15s",
            "MQTT keepalive. The broker sends the Last Will one and a half keepalives after the agent falls silent (a power cut, a lost network): 22.5 s, for which a locator still counts its last readings (locator.md)."
        ),
        .init("mqtt.protocol", "\"3.1.1\" (or 311), 5", "\"3.1.1\"", "MQTT protocol version."),
        .init(
            "mqtt.clean_session", "boolean", "false",
            "Start a clean session instead of resuming the stored one (off: the broker keeps our session "
                + "across reconnects). With it, locate subscribes at QoS 0, which any node of a cluster serves."),
        .init(
            "mqtt.stats_interval", "duration, 0 or ≥ 1s", "60s",
            "How often statistics are published; 0 is off: no stats messages, so beacon2mqtt status and Home "
                + "Assistant's diagnostics get no figures, and systemd's status line changes only with the health and "
                + "the broker connection."),
        .init(
            "mqtt.outbox_limit", "integer ≥ 100", "10000",
            "Most messages held while the broker is unreachable; a quarter of it holds proximity and ranging "
                + "messages, the rest events and states."),
        .init(
            "mqtt.require_broker_at_start", "boolean", "false",
            "Exit 69 when the broker (each of mqtt.host and mqtt.failover) is unreachable at start, instead of "
                + "retrying in the background."),
        .init(
            "mqtt.reconnect_min", "duration ≥ 100ms", "1s",
            "Shortest reconnect delay: the first retry waits 1–1.5× this; the step doubles up to reconnect_max, plus up to half a step at random."
        ),
        .init("mqtt.reconnect_max", "duration ≥ reconnect_min", "60s", "Longest reconnect delay."),
        .init(
            "monitoring.exit_timeout", "duration ≥ 1s", "10s",
            "A region or beacon exits when none of its beacons was seen for this long."),
        .init(
            "monitoring.restore_max_age", "duration", "15m",
            "Retained states younger than this are restored at start; 0 never."),
        .init(
            "monitoring.max_tracked", "integer ≥ 16", "4096",
            "Most beacons tracked at once; the least recently seen is forgotten beyond it."),
        .init("monitoring.per_beacon", "boolean", "true", "Also publish per-beacon state and event topics."),
        .init(
            "monitoring.attributes_refresh", "duration, 0 or ≥ 1s", "5m",
            "While inside, retained attributes (with last_seen) are refreshed this often."),
        .init(
            "ranging.interval", "duration, 100ms…60s", "1s",
            "How often ranging results are computed; each tick's messages go out over its first quarter."),
        .init(
            "ranging.stale_after", "duration ≥ interval", "5s",
            "A beacon not seen for this long leaves the ranging list."),
        .init("ranging.filter.type", "none median trimmed_mean kalman", "median", "RSSI filter."),
        .init("ranging.filter.window", "duration ≥ 100ms", "5s", "Time window of median and trimmed_mean."),
        .init(
            "ranging.filter.trim", "number, 0 ≤ trim < 0.5", "0.1",
            "Fraction trimmed from each end by trimmed_mean."),
        .init("ranging.filter.process_noise", "number > 0", "0.008", "kalman process noise (RSSI domain)."),
        .init("ranging.filter.measurement_noise", "number > 0", "4", "kalman measurement noise (RSSI domain)."),
        .init(
            "ranging.distance.model", "curve_fit log_distance", "curve_fit",
            "RSSI → metres: 0.89976·r^7.7095 + 0.111, or 10^((P − rssi) / 10n)."),
        .init("ranging.distance.exponent", "number, 1…6", "2.7", "Path-loss exponent n of log_distance."),
        .init(
            "ranging.distance.default_measured_power", "integer, −127…0", "-59",
            "RSSI at 1 m when neither the frame nor a beacon entry gives one."),
        .init("ranging.proximity.immediate", "metres > 0", "0.5", "Accuracy below this is immediate."),
        .init("ranging.proximity.near", "metres > immediate", "4", "Accuracy up to this is near; beyond, far."),
        .init(
            "ranging.publish.on_proximity_change", "boolean", "true",
            "Publish a beacon's proximity when its class changes."),
        .init(
            "ranging.publish.accuracy_deadband", "metres ≥ 0", "0.5",
            "… or when its accuracy moved by more than this; 0 is off."),
        .init(
            "ranging.publish.rssi_deadband", "dB ≥ 0", "3",
            "… or when its filtered RSSI moved by at least this; 0 is off. What a room engine needs (locator.md)."),
        .init("ranging.publish.heartbeat", "duration", "30s", "… or at least this often while in range; 0 is off."),
        .init(
            "ranging.publish.ranging_list", "boolean", "true",
            "Publish each region's ranging list every interval while not empty."),
        .init("regions[].name", "topic level, unique", "required", "The region's name in topics."),
        .init("regions[].uuid", "UUID", "—", "iBeacon/AltBeacon proximity UUID. Exactly one of uuid and namespace."),
        .init("regions[].major", "0…65535", "any", "With uuid only."),
        .init("regions[].minor", "0…65535", "any", "With uuid and major only (as CLBeaconRegion)."),
        .init("regions[].namespace", "20 hex digits", "—", "Eddystone-UID namespace."),
        .init("regions[].instance", "12 hex digits", "any", "With namespace only."),
        .init("regions[].notify_entry", "boolean", "true", "Publish enter events."),
        .init("regions[].notify_exit", "boolean", "true", "Publish exit events."),
        .init("regions[].exit_timeout", "duration ≥ 1s", "monitoring.exit_timeout", "Exit timeout of this region."),
        .init("beacons[].uuid", "UUID", "—", "An iBeacon/AltBeacon beacon: uuid, major and minor all required …"),
        .init("beacons[].major", "0…65535", "—", "With uuid and minor."),
        .init("beacons[].minor", "0…65535", "—", "With uuid and major."),
        .init(
            "beacons[].namespace", "20 hex digits", "—",
            "… or an Eddystone-UID beacon: namespace and instance both required. Each beacon may be listed "
                + "once."),
        .init("beacons[].instance", "12 hex digits", "—", "With namespace."),
        .init("beacons[].name", "text", "none", "Friendly name for messages."),
        .init("beacons[].measured_power", "integer, −127…0", "from the frame", "Calibrated RSSI at 1 m."),
        .init("beacons[].exit_timeout", "duration ≥ 1s", "the region's", "Exit timeout of this beacon."),
        .init(
            "devices[].name", "topic level", "—",
            "Required and unique: the device's topics are <base>/devices/<name>/<gw>/…."),
        .init(
            "devices[].irk", "32 hex digits or base64", "—",
            "The identity resolving key (most significant byte first, or Home Assistant's base64). "
                + "A secret: prefer irk_file."),
        .init(
            "devices[].irk_file", "path", "—",
            "… or a file holding the key on its first line (warned about when world-readable, like "
                + "mqtt.password_file)."),
        .init(
            "devices[].address", "aa:bb:cc:dd:ee:ff", "—",
            "… or a fixed public or static random address. Each device has exactly one of irk, irk_file, address."),
        .init(
            "devices[].measured_power", "integer, −127…0", "ranging.distance.default_measured_power",
            "Calibrated RSSI at 1 m."),
        .init("devices[].exit_timeout", "duration ≥ 1s", "monitoring.exit_timeout", "Exit timeout of this device."),
        .init("locator.enabled", "boolean", "false", "Also run the locator inside run (locate always runs it)."),
        .init("locator.engine", "belief nearest", "belief", "How a beacon's room is decided (locator.md)."),
        .init("locator.min_confidence", "0.5…0.99", "0.7", "belief: a room is named once it is at least this likely."),
        .init(
            "locator.allow_unknown", "boolean", "true",
            "belief: say unknown when the named room is less than min_confidence likely and either its gateways no longer hear the beacon or rooms whose gateways are all offline hold the rest (locator.md)."
        ),
        .init(
            "locator.interval", "duration, 100ms…60s", "ranging.interval",
            "Decisions are taken at whole multiples of this."),
        .init(
            "locator.settle", "duration, 0…10s", "1s",
            "A tick is decided this long after it passes, so late (bridged) readings count; keep it above a quarter of the gateways' ranging.interval."
        ),
        .init(
            "locator.clock_tolerance", "duration, 100ms…1h", "2s",
            "How far a gateway's clock may be off the locator's, broker path latency included, before its readings are corrected; a reading later than this does not count (locator.md)."
        ),
        .init("locator.stale_after", "duration ≥ 1s", "35s", "Readings older than this do not count."),
        .init(
            "locator.away_timeout", "duration ≥ 1s", "120s",
            "With no gateway seeing a beacon this long, it is not_home."),
        .init("locator.switch_outright", "0…1", "0.3", "nearest: a challenger this much closer takes over at once."),
        .init(
            "locator.switch_sustained", "0…switch_outright", "0.15",
            "… or this much closer in every reading of its history window."),
        .init("locator.history_window", "1…60", "5", "nearest: readings per gateway kept for the sustained rule."),
        .init("locator.min_history", "1…history_window", "3", "nearest: fewest readings the sustained rule needs."),
        .init("locator.min_dwell", "duration", "10s", "nearest: a new owner is kept at least this long."),
        .init(
            "locator.floor_confirmations", "1…60", "2",
            "Consecutive ticks another floor must lead (belief), or clearly-closer readings (nearest), to change floors."
        ),
        .init(
            "locator.rssi_offset", "map gateway id → dB (−30…30)", "{}",
            "Calibration per gateway, added to its filtered RSSI."),
        .init(
            "locator.mqtt_room_topic", "topic prefix", "none",
            "Also publish Home Assistant mqtt_room messages from the locator."),
        .init(
            "locator.shard", "k/n, 1 ≤ k ≤ n ≤ 1024", "none",
            "Decide only shard k of n: the beacons whose identity hashes to it, so n locators split a site."),
        .init(
            "locator.site_plan", "file path", "none",
            "The site's floor plan (rooms as polygons, gateways at x, y, z, optionally survey points): each beacon gets a position and the room holding it (locator.md). Read again on reload."
        ),
        .init(
            "locator.position_deadband", "metres, 0…100", "1",
            "With a site plan: a location is published again (same room) once its position moved this far from the one last published."
        ),
        .init("locator.fingerprints[].floor", "text", "none", "The room's floor."),
        .init("locator.fingerprints[].room", "text", "—", "Required: the room, unique on its floor."),
        .init(
            "locator.fingerprints[].power", "dBm, −127…0", "none",
            "The measured power (RSSI at 1 m) of the beacon the teach-in walked: a beacon that advertises another is weighed as if it advertised this one. None: the levels are taken as they are, whatever the beacon."
        ),
        .init(
            "locator.fingerprints[].rssi", "map gateway id → [mean dBm, spread dB, share heard]", "—",
            "Required: per gateway, what it published of the beacon there: its mean (−127…20), spread (0.5…40) and the share of seconds it heard it (0.001…0.999)."
        ),
        .init(
            "locator.foreign_sources[].format", "espresense openmqttgateway", "—",
            "Required: whose messages (ESPresense nodes; OpenMQTTGateway or Theengs Gateway)."),
        .init(
            "locator.foreign_sources[].topic", "MQTT subscription", "the format's",
            "Where its nodes publish readings: espresense/devices/+/+, home/+/BTtoMQTT/+."),
        .init(
            "locator.foreign_sources[].availability", "MQTT subscription", "the format's",
            "Where its nodes say online/offline: espresense/rooms/+/status, home/+/LWT."),
        .init(
            "locator.foreign_sources[].nodes[].node", "topic level", "—",
            "Required: the node as its topics name it (ESPresense: its room id; OpenMQTTGateway: its gateway name). Unlisted nodes are ignored and counted."
        ),
        .init(
            "locator.foreign_sources[].nodes[].gateway", "topic level", "node",
            "The gateway id its readings count as (also its locator.rssi_offset key)."),
        .init(
            "locator.foreign_sources[].nodes[].floor", "text", "none",
            "The node's floor."),
        .init(
            "locator.foreign_sources[].nodes[].room", "text", "none",
            "The node's room."),
        .init(
            "locator.foreign_sources[].nodes[].position.x", "number, metres", "none",
            "Where the node stands, as gateway.position: hearing a gateway's advertisement, it is calibrated as a gateway is (locator.md)."
        ),
        .init(
            "locator.foreign_sources[].nodes[].position.y", "number, metres", "none",
            "Position across the floor, with x."),
        .init("locator.foreign_sources[].nodes[].position.z", "number, metres", "0", "Height of the node."),
        .init(
            "homeassistant.discovery", "boolean", "false",
            "Publish retained MQTT discovery for the configured beacons and regions."),
        .init(
            "homeassistant.prefix", "topic prefix", "homeassistant",
            "Discovery prefix; <prefix>/status online republishes discovery."),
        .init(
            "homeassistant.room_topic", "topic prefix", "none",
            "Feed HA's mqtt_room sensor: <room_topic>/<gateway.room> with {\"id\",\"name\",\"distance\"}."),
        .init(
            "homeassistant.gateway_entities", "boolean", "not locator.enabled",
            "Add this gateway's tracker, proximity, distance and event to each beacon's device."),
        .init(
            "homeassistant.via_device", "boolean", "locator: true; gateway: gateway_entities",
            "Name this gateway or locator as the beacons' via_device (one publisher per beacon should)."),
        .init(
            "telemetry.enabled", "boolean", "true",
            "Publish each beacon's telemetry: Eddystone-TLM, Eddystone-URL, advertised TX power, measured advertising interval."
        ),
        .init(
            "telemetry.interval", "duration ≥ 1s", "60s",
            "At most one telemetry message per beacon this often; what is heard meanwhile goes at the end of the interval."
        ),
        .init(
            "telemetry.low_battery_mv", "0…65535", "2500",
            "A TLM battery below this many mV is low, and the crossing is published at once (back to normal at 50 mV above); 0 is off."
        ),
        .init(
            "remote_config.enabled", "boolean", "false",
            "Take configuration layers from <base>/fleet/config/set and <base>/gateways/<gw>/config/set."),
        .init(
            "metrics.listen", "address:port", "none",
            "Serve Prometheus /metrics and /healthz there (run), e.g. 127.0.0.1:9851, or IPv6 in brackets, '[::1]:9851' ([::] takes IPv4 too)."
        ),
        .init(
            "metrics.locator_listen", "address:port", "metrics.listen's address, next port",
            "Where locate serves them, so run and locate with one file on one host never share a port."),
        .init(
            "metrics.map", "boolean", "false",
            "Serve the live map (/map, /map.json, /map/events) where the locator runs; beyond a loopback address only with metrics.map_password_file and TLS (metrics.md)."
        ),
        .init(
            "metrics.map_password_file", "path", "none",
            "user:password lines; the map asks for one of them (HTTP basic auth). /metrics and /healthz stay open."),
        .init(
            "metrics.tls_certificate", "path", "none",
            "PEM certificate (chain) of the endpoint; with metrics.tls_key it serves HTTPS only."),
        .init("metrics.tls_key", "path", "none", "Unencrypted PEM private key of metrics.tls_certificate."),
        .init(
            "advertise.enabled", "boolean", "false",
            "Advertise this gateway as a beacon while it scans (see advertising.md); needs scanner.mode active or passive."
        ),
        .init(
            "advertise.type", "ibeacon, altbeacon, eddystone-uid, eddystone-url", "none",
            "The frame; required when enabled."),
        .init(
            "advertise.uuid", "UUID", "none",
            "iBeacon proximity UUID (ibeacon)."),
        .init(
            "advertise.major", "0…65535", "none",
            "iBeacon major (ibeacon), e.g. the floor."),
        .init(
            "advertise.minor", "0…65535", "none",
            "iBeacon minor (ibeacon), e.g. the room."),
        .init(
            "advertise.measured_power", "-128…127", "-59",
            "Calibrated RSSI at 1 m (ibeacon, eddystone-uid, eddystone-url; Eddystone sends it +41 dB)."),
        .init(
            "advertise.id1", "UUID", "none",
            "AltBeacon id1 (altbeacon)."),
        .init(
            "advertise.id2", "0…65535", "none",
            "AltBeacon id2 (altbeacon)."),
        .init(
            "advertise.id3", "0…65535", "none",
            "AltBeacon id3 (altbeacon)."),
        .init(
            "advertise.company_id", "0…65535", "0xffff",
            "AltBeacon manufacturer id (altbeacon)."),
        .init(
            "advertise.reference_rssi", "-128…127", "-59",
            "AltBeacon calibrated RSSI at 1 m (altbeacon)."),
        .init(
            "advertise.namespace", "20 hex digits", "none",
            "Eddystone-UID namespace (eddystone-uid)."),
        .init(
            "advertise.instance", "12 hex digits", "none",
            "Eddystone-UID instance (eddystone-uid)."),
        .init(
            "advertise.url", "URL", "none",
            "Eddystone-URL, at most 17 octets once encoded (eddystone-url)."),
        .init(
            "advertise.interval", "duration 20ms…10.24s", "100ms",
            "Advertising interval; under 100ms non-connectable, a controller older than Bluetooth 5.0 gets 100ms."),
        .init(
            "advertise.tx_power", "-127…20", "none",
            "Requested radio power in dBm; extended advertising only."),
        .init(
            "advertise.address", "public, random-static", "public",
            "The address the advertisements carry."),
        .init(
            "advertise.connectable", "boolean", "false",
            "ADV_IND instead of ADV_NONCONN_IND."),
        .init(
            "compat", "espresense, or a list", "none",
            "Also publish in another project's format: espresense, ESPresense's device reports on espresense/devices/<id>/<gateway.id> for ESPresense-companion (locator.md)."
        ),
    ]
}
