import BeaconCore
import BeaconWire

/// Section `pipeline`: the whole pure core on one core, with simulated time, at several report
/// rates and population sizes. Cost per report should stay flat as beacons and regions grow.
struct PipelineBench {
    var options: BenchOptions

    struct Case {
        var name: String
        var beacons: Int
        var regions: Int
        /// Reports per simulated second.
        var rate: Double
    }

    var cases: [Case] {
        var out: [Case] = []
        for rate in [1.0, 1_000, 10_000, 100_000] {
            out.append(Case(name: "rate \(BenchReport.formatted(rate, decimals: 0))/s 10k b 100 r", beacons: 10_000, regions: 100, rate: rate))
        }
        for beacons in [1_000, 100_000] {
            out.append(Case(name: "beacons \(beacons / 1000)k @10k/s 100 r", beacons: beacons, regions: 100, rate: 10_000))
        }
        for regions in [1, 1_000] {
            out.append(Case(name: "regions \(regions) @10k/s 10k b", beacons: 10_000, regions: regions, rate: 10_000))
        }
        return out
    }

    func configuration(_ c: Case) -> Configuration {
        var configuration = Configuration()
        configuration.gateway.id = "bench"
        configuration.regions = BeaconPopulation(beacons: c.beacons, regions: c.regions).allRegions
        // Room for the whole population: this measures tracking, not eviction.
        configuration.monitoring.maxTracked = max(configuration.monitoring.maxTracked, 2 * c.beacons)
        return configuration
    }

    func measure(_ c: Case) -> (nsPerReport: Double, messagesPerReport: Double, checksum: UInt64) {
        let population = BeaconPopulation(beacons: c.beacons, regions: c.regions)
        let count = max(2 * c.beacons, options.quick ? 20_000 : 50_000)
        let start = Timestamp(microseconds: 1_767_225_600_000_000)  // 2026-01-01T00:00:00Z
        var packets = population.stream(count: count, rate: c.rate, start: start)
        let passLength = TimeSpan(microseconds: Int64((Double(count) * 1e6 / c.rate).rounded()))
        var pipeline = PipelinePath(configuration: configuration(c))
        var pass: Int64 = 0
        // Each pass replays the same reports one pass length later, so simulated time keeps
        // running forward. Timestamps are shifted in place: a copy per packet would add a retain
        // and release of its bytes that no real source pays.
        func runPass() -> UInt64 {
            if pass > 0 {
                for k in packets.indices { packets[k].timestamp = packets[k].timestamp + passLength }
            }
            pass += 1
            for k in packets.indices { pipeline.ingest(packets[k]) }
            pipeline.advance(to: start + passLength * pass)
            return pipeline.checksum
        }
        _ = runPass()  // warm-up: every beacon enters, tables reach their steady size
        let messagesBefore = pipeline.messageCount
        let passesBefore = pass
        let outcome = Repetitions(minimumSeconds: options.minimumSeconds, count: options.repetitions).run(runPass)
        let reports = Double(count * outcome.iterations)
        let timedReports = Double(count) * Double(pass - passesBefore)
        return (outcome.median * 1e9 / reports, Double(pipeline.messageCount - messagesBefore) / timedReports,
                outcome.checksum)
    }

    func run(into report: inout BenchReport) throws(BenchFailure) {
        for c in cases where options.includes(c.name) {
            let m = measure(c)
            var result = BenchResult(
                section: "pipeline", name: c.name,
                note: PipelinePath.isStandIn ? "stand-in: decode only (Pipeline not merged yet)" : "")
            result.add("reports_per_s_per_core", 1e9 / m.nsPerReport, "reports/s/core")
            result.add("ns_per_report", m.nsPerReport, "ns/report", decimals: 1)
            result.add("messages_per_report", m.messagesPerReport, "msg/report", decimals: 3)
            result.add("checksum", Double(m.checksum % 1_000_000), "chk")
            if !PipelinePath.isStandIn, c.rate == 10_000, c.beacons == 10_000, c.regions == 100 {
                result.note = 1e9 / m.nsPerReport >= 5e6 ? "target ≥ 5 M/s/core: met" : "target ≥ 5 M/s/core: MISSED"
            }
            report.add(result)
        }
    }
}
