import BeaconCore
import BeaconWire

/// The YAML the benchmark hands `beacon2mqtt run` / `replay` (keys as etc/beacon2mqtt.yaml documents them).
struct AgentConfigFile {
    var port: Int
    var regions: [BeaconRegion] = []
    var maxTracked = 4096
    var exitTimeout = "10s"
    var perBeacon = true
    /// False: `telemetry.enabled: false` (`--agent-telemetry off`; builds before telemetry refuse the key).
    var telemetry = true
    /// `scanner.read_interval` ("50ms"); nil leaves the key out (builds before it refuse the key).
    var readInterval: String?

    var yaml: String {
        var out = """
            gateway:
              id: bench
            mqtt:
              host: 127.0.0.1
              port: \(port)
              base_topic: beacons
              client_id: beacon2mqtt-bench-agent
            monitoring:
              exit_timeout: \(exitTimeout)
              max_tracked: \(maxTracked)
              per_beacon: \(perBeacon)
            ranging:
              interval: 1s
            """
        out += "\n"
        if !telemetry { out += "telemetry:\n  enabled: false\n" }
        if let readInterval { out += "scanner:\n  read_interval: \(readInterval)\n" }
        if regions.isEmpty { return out }
        out += "regions:\n"
        for region in regions {
            out += "  - name: \(region.name)\n    uuid: \(region.uuid.uuidString)\n"
            if let major = region.major { out += "    major: \(major)\n" }
            if let minor = region.minor { out += "    minor: \(minor)\n" }
        }
        return out
    }
}
