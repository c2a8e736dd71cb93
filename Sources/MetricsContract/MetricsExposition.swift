/// `/metrics`: a snapshot in the text exposition format. The one place the metric names are
/// spelled; they are the contract (docs/metrics.md lists them, and tests tie the two).
package enum MetricsExposition {
    package static let prefix = "beacon2mqtt_"
    /// The scan modes `scan_mode` reports, one sample each (1 for the current mode).
    package static let scanModes = ["active", "passive", "listen"]

    package static func render(_ snapshot: MetricsSnapshot) -> String {
        var w = ExpositionWriter()
        let p = prefix
        w.family(p + "build_info", .gauge, "Always 1; the version of beacon2mqtt that is running.")
        w.sample(p + "build_info", ["version": snapshot.version], 1)
        if let gateway = snapshot.gateway { render(gateway, &w) }
        if let locator = snapshot.locator {
            w.family(p + "locator_locations", .gauge, "Beacons the locator currently places on a floor and in a room.")
            w.sample(p + "locator_locations", locator.locations)
            w.family(p + "locator_changes_total", .counter, "Location changes the locator has decided.")
            w.sample(p + "locator_changes_total", locator.changes)
            w.family(
                p + "locator_unknown", .gauge,
                "Beacons whose location is unknown: home, but no room can be named with confidence.")
            w.sample(p + "locator_unknown", locator.unknown)
            w.family(
                p + "locator_gateway_up", .gauge,
                "Per gateway the locator knows: 1 while it can hear, 0 while its status says offline or degraded.")
            for g in locator.gateways { w.sample(p + "locator_gateway_up", ["gateway": g.gateway], g.up ? 1 : 0) }
            w.family(
                p + "gateway_clock_offset_seconds", .gauge,
                "Per gateway the locator hears: its clock minus the locator's, less the fastest path's latency.")
            for c in locator.clocks { w.sample(p + "gateway_clock_offset_seconds", ["gateway": c.gateway], c.offset) }
            w.family(
                p + "gateway_clock_skewed", .gauge,
                "Per gateway: 1 while its clock is off by more than locator.clock_tolerance (its readings corrected), else 0."
            )
            for c in locator.clocks { w.sample(p + "gateway_clock_skewed", ["gateway": c.gateway], c.skewed ? 1 : 0) }
            w.family(
                p + "locator_late_readings_total", .counter,
                "Readings not counted: they arrived later than locator.clock_tolerance after their (corrected) timestamp."
            )
            w.sample(p + "locator_late_readings_total", locator.lateReadings)
            w.family(
                p + "locator_malformed_messages_total", .counter,
                "Gateways' proximity, event, location and status messages whose payload could not be read, skipped.")
            w.sample(p + "locator_malformed_messages_total", locator.malformed)
            w.family(
                p + "locator_foreign_messages_total", .counter,
                "Messages of locator.foreign_sources by outcome: reading and status are used, the rest ignored.")
            for f in locator.foreignMessages {
                w.sample(p + "locator_foreign_messages_total", ["outcome": f.outcome], f.count)
            }
        }
        // The gateway's MQTT session where there is one, else the locator's (`locate`).
        if let broker = snapshot.gateway?.broker ?? snapshot.locator?.broker {
            w.family(p + "mqtt_connected", .gauge, "1 while connected to the MQTT broker, else 0.")
            w.sample(p + "mqtt_connected", broker.connected ? 1 : 0)
            w.family(p + "mqtt_reconnects_total", .counter, "Successful connections to the broker after the first.")
            w.sample(p + "mqtt_reconnects_total", broker.reconnects)
        }
        if let process = snapshot.process { render(process, &w) }
        return w.text
    }

    private static func render(_ g: GatewayMetrics, _ w: inout ExpositionWriter) {
        let p = prefix
        let adapter: KeyValuePairs<String, String> = ["adapter": g.adapter]
        w.family(p + "reports_total", .counter, "Advertising reports decoded.")
        w.sample(p + "reports_total", adapter, g.reports)
        w.family(p + "reports_malformed_total", .counter, "HCI packets that could not be decoded, skipped, by reason.")
        for m in g.malformed { w.sample(p + "reports_malformed_total", ["reason": m.reason], m.count) }
        w.family(p + "beacons_tracked", .gauge, "Beacons in the tracking table.")
        w.sample(p + "beacons_tracked", g.beaconsTracked)
        w.family(p + "region_state", .gauge, "Per configured region: 1 inside, 0 outside or not yet determined.")
        for r in g.regions { w.sample(p + "region_state", ["region": r.name], r.inside ? 1 : 0) }
        w.family(p + "events_total", .counter, "Enter and exit events (regions and per-beacon).")
        w.sample(p + "events_total", ["kind": "enter"], g.enters)
        w.sample(p + "events_total", ["kind": "exit"], g.exits)
        w.family(
            p + "unresolved_private_addresses_total", .counter,
            "Reports from resolvable private addresses that no configured IRK resolved (counted, never kept).")
        w.sample(p + "unresolved_private_addresses_total", g.unresolvedPrivateAddresses)
        w.family(p + "messages_published_total", .counter, "Messages written (QoS 0) or acknowledged (QoS 1, 2).")
        for l in g.lanes { w.sample(p + "messages_published_total", ["lane": l.lane], l.published) }
        w.family(p + "messages_dropped_total", .counter, "Messages coalesced, dropped under pressure, or refused.")
        for l in g.lanes { w.sample(p + "messages_dropped_total", ["lane": l.lane], l.dropped) }
        w.family(p + "outbox_queued", .gauge, "Messages queued or in flight in the outbox.")
        for l in g.lanes { w.sample(p + "outbox_queued", ["lane": l.lane], l.queued) }
        w.family(p + "adapter_up", .gauge, "1 while the packet source is healthy, else 0.")
        w.sample(p + "adapter_up", adapter, g.sourceProblem == nil ? 1 : 0)
        w.family(p + "adapter_resets_total", .counter, "Times the adapter was reopened or reset after a fault.")
        w.sample(p + "adapter_resets_total", adapter, g.adapterResets)
        w.family(p + "scan_mode", .gauge, "Per scan mode: 1 for the adapter's current mode, else 0.")
        if let mode = g.scanMode {
            for m in scanModes { w.sample(p + "scan_mode", ["adapter": g.adapter, "mode": m], m == mode ? 1 : 0) }
        }
        w.family(
            p + "report_to_publish_seconds", .histogram,
            "From the source handing a report over to its messages going to the MQTT library.")
        w.histogram(p + "report_to_publish_seconds", g.reportToPublish)
    }

    private static func render(_ process: ProcessMetrics, _ w: inout ExpositionWriter) {
        w.family("process_cpu_seconds_total", .counter, "Total user and system CPU time spent in seconds.")
        w.sample("process_cpu_seconds_total", process.cpuSeconds)
        w.family("process_resident_memory_bytes", .gauge, "Resident memory size in bytes.")
        w.sample("process_resident_memory_bytes", process.residentMemoryBytes)
        w.family("process_virtual_memory_bytes", .gauge, "Virtual memory size in bytes.")
        w.sample("process_virtual_memory_bytes", process.virtualMemoryBytes)
        w.family("process_start_time_seconds", .gauge, "Start time of the process since unix epoch in seconds.")
        w.sample("process_start_time_seconds", process.startTimeSeconds)
        w.family("process_open_fds", .gauge, "Number of open file descriptors.")
        w.sample("process_open_fds", process.openFDs)
        w.family("process_max_fds", .gauge, "Maximum number of open file descriptors.")
        w.sample("process_max_fds", process.maxFDs)
    }

    /// Every family name `render` can write, for the documentation test.
    package static let familyNames: [String] =
        [
            "build_info", "reports_total", "reports_malformed_total", "beacons_tracked", "region_state", "events_total",
            "unresolved_private_addresses_total", "messages_published_total", "messages_dropped_total", "outbox_queued",
            "adapter_up", "adapter_resets_total",
            "scan_mode", "report_to_publish_seconds", "locator_locations", "locator_changes_total", "locator_unknown",
            "locator_gateway_up",
            "gateway_clock_offset_seconds", "gateway_clock_skewed", "locator_late_readings_total",
            "locator_malformed_messages_total",
            "locator_foreign_messages_total", "mqtt_connected", "mqtt_reconnects_total",
        ].map { prefix + $0 }
        + [
            "process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
            "process_start_time_seconds", "process_open_fds", "process_max_fds",
        ]
}
