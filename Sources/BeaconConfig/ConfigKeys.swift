import BeaconCore
import Settings

/// Every key the loader accepts, by section (`regions[]` is one list item). The loader rejects
/// any other key, and a test checks that `etc/beacon2mqtt.yaml` shows each of them, so the
/// example file and this table cannot drift apart.
enum ConfigKeys {
    static let sections: [String: [String]] = [
        "": [
            "log_level", "gateway", "scanner", "mqtt", "monitoring", "ranging", "regions", "beacons", "devices",
            "locator",
            "homeassistant", "telemetry", "remote_config", "metrics", "advertise", "compat",
        ],
        "gateway": ["id", "floor", "room", "rssi_offset", "position"],
        "gateway.position": ["x", "y", "z"],
        "scanner": ["adapter", "mode", "interval", "window", "watchdog", "read_interval"],
        "mqtt": [
            "host", "port", "failover", "base_topic", "client_id", "username", "password_file", "tls", "qos",
            "keepalive",
            "protocol", "clean_session", "stats_interval", "outbox_limit", "require_broker_at_start",
            "reconnect_min", "reconnect_max",
        ],
        "mqtt.tls": ["enabled", "ca_file", "ca_path", "cert_file", "key_file", "version", "insecure"],
        "monitoring": ["exit_timeout", "restore_max_age", "max_tracked", "per_beacon", "attributes_refresh"],
        "ranging": ["interval", "stale_after", "filter", "distance", "proximity", "publish"],
        "ranging.filter": ["type", "window", "trim", "process_noise", "measurement_noise"],
        "ranging.distance": ["model", "exponent", "default_measured_power"],
        "ranging.proximity": ["immediate", "near"],
        "ranging.publish": ["on_proximity_change", "accuracy_deadband", "rssi_deadband", "heartbeat", "ranging_list"],
        "regions[]": [
            "name", "uuid", "namespace", "major", "minor", "instance", "notify_entry", "notify_exit", "exit_timeout",
        ],
        "homeassistant": ["discovery", "prefix", "room_topic", "gateway_entities", "via_device"],
        "telemetry": ["enabled", "interval", "low_battery_mv"],
        "remote_config": ["enabled"],
        "metrics": ["listen", "locator_listen", "map", "map_password_file", "tls_certificate", "tls_key"],
        "locator": [
            "enabled", "interval", "settle", "clock_tolerance", "stale_after", "away_timeout", "switch_outright",
            "switch_sustained",
            "history_window", "min_history", "min_dwell", "floor_confirmations", "rssi_offset", "mqtt_room_topic",
            "shard", "engine", "min_confidence", "allow_unknown", "foreign_sources", "site_plan",
            "position_deadband", "fingerprints",
        ],
        "locator.fingerprints[]": ["floor", "room", "power", "rssi"],
        "locator.foreign_sources[]": ["format", "topic", "availability", "nodes"],
        "locator.foreign_sources[].nodes[]": ["node", "gateway", "floor", "room", "position"],
        "locator.foreign_sources[].nodes[].position": ["x", "y", "z"],
        "advertise": ["enabled", "type"] + AdvertiseField.allCases.map(\.configKey) + ["connectable"],
        "beacons[]": ["uuid", "major", "minor", "namespace", "instance", "name", "measured_power", "exit_timeout"],
        "devices[]": ["name", "irk", "irk_file", "address", "measured_power", "exit_timeout"],
    ]

    /// Sections whose keys are names chosen by the operator (gateway ids), not fixed keys.
    static let freeForm: Set<String> = ["locator.rssi_offset", "locator.fingerprints[].rssi"]

    /// Keys refused with a specific explanation instead of "unknown key".
    static let refused: [String: String] = [
        "mqtt.password": "a password does not belong in the configuration file; put it in a file readable only by "
            + "the agent and set mqtt.password_file",
        "mqtt.tls.password": "a key password is not supported; use an unencrypted key file readable only by the agent",
    ]

    /// Every accepted key as a schema path (`mqtt.tls.ca_file`, `regions[].uuid`), sorted.
    static var allPaths: [String] {
        sections.flatMap { section, keys in
            keys.map { key in section.isEmpty ? key : "\(section).\(key)" }
        }.sorted()
    }
}
