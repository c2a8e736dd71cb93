import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import Vocabulary

/// Section `pipeline`: the whole pure core on one core, with simulated time, at several report
/// rates and population sizes.
///
/// The rate series runs the default publish policy: its cost per report includes the per-tick
/// output (ranging lists and proximity updates of every beacon in range, once a second), so it
/// grows as reports get rarer. The scaling series (beacons 1k/10k/100k, regions 1/100/1,000, all
/// at 100k reports per simulated second) runs with proximity and ranging output off, so what it
/// shows is the per-report path itself, which should not grow with the population.
struct PipelineBench {
    var options: BenchOptions

    struct Case {
        var name: String
        var beacons: Int
        var regions: Int
        /// Reports per simulated second.
        var rate: Double
        /// Events and states only: no proximity or ranging messages.
        var eventsOnly = false
        /// `telemetry.enabled` (the default): the per-report cost of the telemetry tracker.
        var telemetry = true
    }

    static let cases: [Case] = {
        var out: [Case] = []
        for (rate, label) in [(1.0, "1"), (1_000, "1k"), (10_000, "10k"), (100_000, "100k")] {
            out.append(Case(name: "\(label)/s, 10k beacons, 100 regions", beacons: 10_000, regions: 100, rate: rate))
        }
        for (beacons, label) in [(1_000, "1k"), (10_000, "10k"), (100_000, "100k")] {
            out.append(
                Case(
                    name: "events only: \(label) beacons", beacons: beacons, regions: 100, rate: 100_000,
                    eventsOnly: true))
        }
        out.append(
            Case(
                name: "events only: 10k beacons, telemetry off", beacons: 10_000, regions: 100, rate: 100_000,
                eventsOnly: true, telemetry: false))
        for regions in [1, 100, 1_000] {
            out.append(
                Case(
                    name: "events only: \(regions) regions", beacons: 10_000, regions: regions, rate: 100_000,
                    eventsOnly: true))
        }
        return out
    }()

    func configuration(_ c: Case) -> Configuration {
        var configuration = Configuration()
        configuration.gateway.id = "bench"
        configuration.regions = BeaconPopulation(beacons: c.beacons, regions: c.regions).allRegions
        // Room for the whole population: this measures tracking, not eviction.
        configuration.monitoring.maxTracked = max(configuration.monitoring.maxTracked, 2 * c.beacons)
        configuration.telemetry.enabled = c.telemetry
        if c.eventsOnly {
            configuration.ranging.publish.onProximityChange = false
            configuration.ranging.publish.accuracyDeadband = 0
            configuration.ranging.publish.heartbeat = .zero
            configuration.ranging.publish.rangingList = false
        }
        return configuration
    }

    struct Measurement {
        var nanosecondsPerReport: Double
        var messagesPerReport: Double
        var checksum: UInt64
    }

    /// One cycle of the population's reports is generated; the pipeline first runs a warm-up,
    /// then timed chunks continue along the cycle with simulated time running forward.
    func measure(_ c: Case) -> Measurement {
        let population = BeaconPopulation(beacons: c.beacons, regions: c.regions)
        let start = Timestamp(microseconds: 1_767_225_600_000_000)  // 2026-01-01T00:00:00Z
        var packets = population.stream(count: c.beacons, rate: c.rate, start: start)
        let cycle = TimeSpan(microseconds: Int64((Double(c.beacons) * 1e6 / c.rate).rounded()))
        var pipeline = PipelinePath(configuration: configuration(c))
        var next = 0
        // Feeds `count` packets, wrapping around the cycle; timestamps are shifted in place on each
        // wrap (a copy per packet would add a retain/release of its bytes that no real source pays).
        func feed(_ count: Int) -> UInt64 {
            for _ in 0..<count {
                pipeline.ingest(packets[next])
                next += 1
                if next == packets.count {
                    next = 0
                    for k in packets.indices { packets[k].timestamp = packets[k].timestamp + cycle }
                }
            }
            return pipeline.checksum
        }
        // Warm-up: every beacon once (or 20 simulated seconds when a cycle is longer), and at least
        // 2.5 simulated seconds, so the first ranging ticks (first proximity of every beacon) are past.
        _ = feed(max(min(c.beacons, max(1_000, Int(20 * c.rate))), Int(2.5 * c.rate)))
        let messagesBefore = pipeline.messageCount
        let reportsBefore = pipeline.counters.reports
        let chunk = 1_000
        let outcome = Repetitions(minimumSeconds: options.minimumSeconds, count: options.repetitions).run {
            feed(chunk)
        }
        let timedReports = Double(pipeline.counters.reports - reportsBefore)
        return Measurement(
            nanosecondsPerReport: outcome.median * 1e9 / Double(chunk * outcome.iterations),
            messagesPerReport: Double(pipeline.messageCount - messagesBefore) / max(timedReports, 1),
            checksum: outcome.checksum)
    }

    func run(into report: inout BenchReport) throws(BenchFailure) {
        for c in Self.cases where options.includes(c.name) {
            let m = measure(c)
            var result = BenchResult(section: "pipeline", name: c.name)
            result.add("reports_per_s_per_core", 1e9 / m.nanosecondsPerReport, "reports/s/core")
            result.add("ns_per_report", m.nanosecondsPerReport, "ns/report", decimals: 1)
            if !c.eventsOnly { result.addHeadroom(reportsPerSecond: 1e9 / m.nanosecondsPerReport) }
            result.add("messages_per_report", m.messagesPerReport, "msg/report", decimals: 3)
            result.add("checksum", Double(m.checksum % 1_000_000), "chk")
            if !c.eventsOnly, c.rate == 10_000 {
                result.note =
                    1e9 / m.nanosecondsPerReport >= 5e6 ? "target ≥ 5 M/s/core: met" : "target ≥ 5 M/s/core: MISSED"
            }
            report.add(result)
        }
    }
}
