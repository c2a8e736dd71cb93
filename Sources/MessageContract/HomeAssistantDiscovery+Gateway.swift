import BeaconCore
import BeaconWire
import Vocabulary

/// The gateway's own device: diagnostic entities from its retained status and stats (docs/topics.md, "Stats").
extension HomeAssistantDiscovery {
    func gatewayDiagnostics() -> [HomeAssistantEntity] {
        let device = gatewayDevice
        let stats = topics.gatewayStats
        // Connected while the status says online or degraded; it has no availability of its own,
        // so an offline gateway shows "disconnected" rather than "unavailable".
        var connectivity = HomeAssistantEntity(
            .binarySensor, device: device, node: node, key: "connectivity", name: "Connectivity",
            stateTopic: availabilityTopic)
        connectivity.deviceClass = "connectivity"
        connectivity.diagnostic = true
        connectivity.valueTemplate = "{{ 'OFF' if value == '\(Availability.offline.rawValue)' else 'ON' }}"

        var degraded = diagnostic(device, "degraded", "Problem", stats, "{{ 'ON' if value_json.degraded else 'OFF' }}")
        degraded.component = .binarySensor
        degraded.deviceClass = "problem"

        var rate = diagnostic(
            device, "reports_per_s", "Reports per second", stats, "{{ value_json.reports_per_s | round(0) }}")
        rate.measurement.unit = "reports/s"
        rate.measurement.stateClass = "measurement"
        rate.icon = "mdi:bluetooth-transfer"

        var tracked = diagnostic(
            device, "beacons_tracked", "Beacons tracked", stats, "{{ value_json.beacons_tracked }}")
        tracked.measurement.stateClass = "measurement"
        tracked.icon = "mdi:bluetooth"

        var dropped = diagnostic(device, "dropped", "Dropped messages", stats, "{{ value_json.dropped }}")
        dropped.measurement.stateClass = "total_increasing"
        dropped.icon = "mdi:email-remove-outline"

        // A start time, not a growing uptime: it stays put, so it costs no recorder rows. Floored
        // to the minute, as the stats' timestamp and whole-second uptime jitter by a second.
        var started = diagnostic(
            device, "started", "Started", stats,
            "{{ (((as_timestamp(value_json.timestamp) - value_json.uptime) // 60) * 60) | timestamp_custom('%Y-%m-%dT%H:%M:%S+00:00', false) }}"
        )
        started.deviceClass = "timestamp"

        // What a locator measured of this gateway's clock (`GatewayClocks`); unknown until one hears it.
        var clock = diagnostic(
            device, "clock_offset", "Clock offset", topics.gatewayClock, "{{ value_json.offset }}")
        clock.deviceClass = "duration"
        clock.measurement.unit = "s"
        clock.measurement.stateClass = "measurement"
        clock.measurement.displayPrecision = 1

        var mode = diagnostic(device, "scan_mode", "Scan mode", stats, "{{ value_json.scan_mode }}")
        mode.icon = "mdi:radar"
        var adapter = diagnostic(device, "adapter", "Adapter", stats, "{{ value_json.adapter }}")
        adapter.icon = "mdi:bluetooth-settings"
        return [connectivity, degraded, rate, tracked, dropped, started, clock, mode, adapter]
    }

    private func diagnostic(
        _ device: HomeAssistantDevice, _ key: String, _ name: String, _ topic: String, _ template: String
    ) -> HomeAssistantEntity {
        var e = HomeAssistantEntity(.sensor, device: device, node: node, key: key, name: name, stateTopic: topic)
        e.valueTemplate = template
        e.diagnostic = true
        e.availability = [gatewayOnline]
        return e
    }
}
