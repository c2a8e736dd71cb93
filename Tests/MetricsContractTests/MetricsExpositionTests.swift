import MetricsContract
import Testing

@Suite struct MetricsExpositionTests {
    static func gateway() -> GatewayMetrics {
        var g = GatewayMetrics(adapter: "hci0")
        g.reports = 1234
        g.malformed = [("truncated", 3), ("bad_parameter_length", 0)]
        g.beaconsTracked = 7
        g.regions = [("kitchen", true), ("gar\"age\\\n", false)]
        g.enters = 5
        g.exits = 4
        g.unresolvedPrivateAddresses = 310
        g.lanes = [
            LaneMetrics(lane: "must_deliver", published: 90, dropped: 1, queued: 2),
            LaneMetrics(lane: "expendable", published: 10, dropped: 6, queued: 0),
        ]
        g.broker = BrokerMetrics(connected: true, reconnects: 2)
        g.adapterResets = 1
        g.scanMode = "passive"
        g.reportToPublish.observe(0.0002)
        g.reportToPublish.observe(0.003, times: 2)
        g.reportToPublish.observe(30)
        return g
    }

    static let process = ProcessMetrics(
        residentMemoryBytes: 9_437_184, virtualMemoryBytes: 200_000_000, cpuSeconds: 1.25,
        startTimeSeconds: 1_764_590_000.5, openFDs: 12, maxFDs: 1024)

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func writesEverySampleWithItsLabels() {
        let text = MetricsExposition.render(
            MetricsSnapshot(version: "1.2.3", gateway: Self.gateway(), process: Self.process))
        let lines = Self.lines(text)
        for expected in [
            #"beacon2mqtt_build_info{version="1.2.3"} 1"#,
            #"beacon2mqtt_reports_total{adapter="hci0"} 1234"#,
            #"beacon2mqtt_reports_malformed_total{reason="truncated"} 3"#,
            #"beacon2mqtt_reports_malformed_total{reason="bad_parameter_length"} 0"#,
            "beacon2mqtt_beacons_tracked 7",
            #"beacon2mqtt_region_state{region="kitchen"} 1"#,
            #"beacon2mqtt_region_state{region="gar\"age\\\n"} 0"#,
            #"beacon2mqtt_events_total{kind="enter"} 5"#,
            #"beacon2mqtt_events_total{kind="exit"} 4"#,
            "beacon2mqtt_unresolved_private_addresses_total 310",
            #"beacon2mqtt_messages_published_total{lane="must_deliver"} 90"#,
            #"beacon2mqtt_messages_dropped_total{lane="expendable"} 6"#,
            #"beacon2mqtt_outbox_queued{lane="must_deliver"} 2"#,
            "beacon2mqtt_mqtt_connected 1",
            "beacon2mqtt_mqtt_reconnects_total 2",
            #"beacon2mqtt_adapter_up{adapter="hci0"} 1"#,
            #"beacon2mqtt_adapter_resets_total{adapter="hci0"} 1"#,
            #"beacon2mqtt_scan_mode{adapter="hci0",mode="passive"} 1"#,
            #"beacon2mqtt_scan_mode{adapter="hci0",mode="active"} 0"#,
            "process_resident_memory_bytes 9437184",
            "process_cpu_seconds_total 1.25",
            "process_start_time_seconds 1764590000.5",
            "process_open_fds 12",
        ] {
            #expect(lines.contains(expected), "missing: \(expected)")
        }
        #expect(text.hasSuffix("\n"))
    }

    @Test func histogramBucketsAreCumulativeAndEndWithInf() {
        let lines = Self.lines(MetricsExposition.render(MetricsSnapshot(version: "x", gateway: Self.gateway())))
        let name = "beacon2mqtt_report_to_publish_seconds"
        let buckets = lines.filter { $0.hasPrefix(name + "_bucket") }
        #expect(buckets.count == LatencyHistogram.bounds.count + 1)
        #expect(buckets.contains(name + #"_bucket{le="0.0001"} 0"#))
        #expect(buckets.contains(name + #"_bucket{le="0.00025"} 1"#))
        #expect(buckets.contains(name + #"_bucket{le="0.005"} 3"#))
        #expect(buckets.contains(name + #"_bucket{le="10"} 3"#))
        #expect(buckets.last == name + #"_bucket{le="+Inf"} 4"#)
        #expect(lines.contains(name + "_count 4"))
        #expect(lines.contains(name + "_sum 30.0062"))
        let values = buckets.map { Int($0.split(separator: " ").last!)! }
        #expect(values == values.sorted())
    }

    /// Every family has HELP then TYPE, once, before its samples; every sample belongs to the
    /// family above it; and the families are exactly the documented list.
    @Test func everyFamilyHasHelpAndTypeFirst() {
        let full = MetricsSnapshot(
            version: "1", gateway: Self.gateway(), locator: LocatorMetrics(locations: 3, changes: 9),
            process: Self.process)
        var families: [String] = []
        var current: String?
        var helped: String?
        for line in Self.lines(MetricsExposition.render(full)) {
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            if words[0] == "#" {
                if words[1] == "HELP" {
                    helped = words[2]
                    #expect(words.count == 4 && !words[3].isEmpty)
                } else {
                    #expect(words[1] == "TYPE" && helped == words[2])
                    #expect(["counter", "gauge", "histogram"].contains(words[3]))
                    #expect(!families.contains(words[2]))
                    families.append(words[2])
                    current = words[2]
                }
                continue
            }
            let name = String(line.prefix { $0 != "{" && $0 != " " })
            let family = try! #require(current)
            #expect(name == family || name.hasPrefix(family + "_"), "\(name) under \(family)")
        }
        #expect(families.sorted() == MetricsExposition.familyNames.sorted())
        for name in families where name.hasSuffix("_total") {
            #expect(Self.lines(MetricsExposition.render(full)).contains("# TYPE \(name) counter"))
        }
    }

    @Test func locateShowsTheLocatorAndItsBroker() {
        let text = MetricsExposition.render(
            MetricsSnapshot(
                version: "1",
                locator: LocatorMetrics(
                    locations: 3, changes: 9, unknown: 1,
                    gateways: [.init(gateway: "hall", up: true), .init(gateway: "lab", up: false)],
                    broker: BrokerMetrics(), malformed: 2,
                    foreignMessages: [.init(outcome: "reading", count: 4), .init(outcome: "unmapped_node", count: 2)])))
        let lines = Self.lines(text)
        #expect(lines.contains(#"beacon2mqtt_locator_foreign_messages_total{outcome="reading"} 4"#))
        #expect(lines.contains(#"beacon2mqtt_locator_foreign_messages_total{outcome="unmapped_node"} 2"#))
        #expect(lines.contains("beacon2mqtt_locator_locations 3"))
        #expect(lines.contains("beacon2mqtt_locator_changes_total 9"))
        #expect(lines.contains("beacon2mqtt_locator_unknown 1"))
        #expect(lines.contains("beacon2mqtt_locator_malformed_messages_total 2"))
        #expect(lines.contains(#"beacon2mqtt_locator_gateway_up{gateway="hall"} 1"#))
        #expect(lines.contains(#"beacon2mqtt_locator_gateway_up{gateway="lab"} 0"#))
        #expect(lines.contains("beacon2mqtt_mqtt_connected 0"))
        #expect(!text.contains("reports_total"))
    }

    @Test func formatsNumbersAsGoParsesThem() {
        #expect(ExpositionWriter.format(3) == "3")
        #expect(ExpositionWriter.format(0.005) == "0.005")
        #expect(ExpositionWriter.format(1e-5) == "1e-05")
        #expect(ExpositionWriter.format(.infinity) == "+Inf")
        #expect(ExpositionWriter.format(-.infinity) == "-Inf")
        #expect(ExpositionWriter.format(.nan) == "NaN")
        #expect(ExpositionWriter.escapedHelp("a\\b\nc\"") == "a\\\\b\\nc\"")
    }

    @Test func healthNamesEveryProblem() {
        var g = Self.gateway()
        #expect(MetricsSnapshot(version: "1", gateway: g).problems.isEmpty)
        g.broker.connected = false
        g.sourceProblem = "adapter hci0 is down"
        #expect(
            MetricsSnapshot(version: "1", gateway: g).problems == [
                "source degraded: adapter hci0 is down", "broker not connected",
            ])
        #expect(MetricsSnapshot(version: "1").problems == ["starting"])
        #expect(MetricsSnapshot(version: "1", locator: LocatorMetrics()).problems == ["locator: broker not connected"])
    }

    @Test func histogramCountsNegativeAsZeroAndIgnoresNoTimes() {
        var h = LatencyHistogram()
        h.observe(-1)
        h.observe(1, times: 0)
        #expect(h.count == 1 && h.sum == 0 && h.counts[0] == 1)
    }
}
