import Foundation

/// Section `metrics`: what `/metrics` costs the pipeline. The real agent replays a capture at
/// `--speed max` into a private mosquitto three ways, interleaved so drift hits all alike:
/// without metrics.listen, with it and no scrapes, and with it while a scraper fetches /metrics
/// every 100 ms (150 times Prometheus's default rate). Each run's wall time, spawn to exit, is one
/// repetition; the median of each is reported and the slowdown is scraped ÷ off (target < 5 %).
/// The agent's CPU time (its rusage once reaped) is reported the same way: on a shared machine it
/// moves less with other jobs than wall time does, and it includes what rendering the scrapes cost.
struct MetricsBench {
    var options: BenchOptions
    var scratch: ScratchDirectory

    static let name = "replay --speed max, scraped /metrics"
    static let scrapeInterval = 0.1

    func run(into report: inout BenchReport) throws(BenchFailure) {
        guard options.includes(Self.name) else { return }
        guard FileManager.default.isExecutableFile(atPath: options.agent) else {
            throw BenchFailure("no agent at \(options.agent) (swift build -c release --product beacon2mqtt)")
        }
        let reports = max(options.metricsReports, 10_000)
        let population = BeaconPopulation(beacons: 2_000, regions: 20)
        let capture = scratch.path("metrics.btsnoop")
        _ = try CaptureWorkloads.cohorts(reports: reports, population: population, exitTimeout: 10, to: capture)
        let broker = try PrivateBroker(scratch: scratch)
        defer { broker.stop() }
        let port = try PrivateBroker.freePort()
        var file = AgentConfigFile(port: broker.port, regions: population.allRegions)
        file.maxTracked = 8_192
        let off = try scratch.write(file.yaml, to: "metrics-off.yaml")
        let on = try scratch.write(file.yaml + "metrics:\n  listen: 127.0.0.1:\(port)\n", to: "metrics-on.yaml")

        var seconds: [String: [Double]] = ["off": [], "on": [], "scraped": []]
        var cpu: [String: [Double]] = ["off": [], "on": [], "scraped": []]
        var scrapes = 0
        var failedScrapes = 0
        for _ in 0..<max(options.repetitions, 3) {
            for (key, config, scrapePort) in [("off", off, nil), ("on", on, nil), ("scraped", on, port)] {
                let run = try replay(config: config, capture: capture, scrapePort: scrapePort)
                seconds[key]!.append(run.seconds)
                cpu[key]!.append(run.cpuSeconds)
                scrapes += run.scrapes
                failedScrapes += run.failed
            }
        }
        let median = { (key: String) in Repetitions.Outcome.median(seconds[key]!) }
        let cpuMedian = { (key: String) in Repetitions.Outcome.median(cpu[key]!) }
        let slowdown = median("scraped") / median("off") - 1
        var result = BenchResult(section: "metrics", name: Self.name)
        result.add("reports", Double(reports), "reports")
        result.add("off_s", median("off"), "s off", decimals: 3)
        result.add("on_s", median("on"), "s on, no scrapes", decimals: 3)
        result.add("scraped_s", median("scraped"), "s scraped", decimals: 3)
        result.add("reports_per_s_scraped", Double(reports) / median("scraped"), "reports/s scraped")
        result.add("slowdown_pct", slowdown * 100, "% slowdown", decimals: 1)
        result.add("on_slowdown_pct", (median("on") / median("off") - 1) * 100, "% on unscraped", decimals: 1)
        result.add("cpu_off_s", cpuMedian("off"), "CPU s off", decimals: 3)
        result.add("cpu_scraped_s", cpuMedian("scraped"), "CPU s scraped", decimals: 3)
        result.add("cpu_slowdown_pct", (cpuMedian("scraped") / cpuMedian("off") - 1) * 100, "% more CPU", decimals: 1)
        result.add("scrapes", Double(scrapes), "scrapes")
        result.add("failed_scrapes", Double(failedScrapes), "failed scrapes")
        result.note =
            "target < 5 % slower with scrapes: " + (slowdown < 0.05 && failedScrapes == 0 && scrapes > 0 ? "met" : "MISSED")
        report.add(result)
    }

    /// One replay, spawn to exit, with a scraper on `scrapePort` while it runs.
    private func replay(
        config: String, capture: String, scrapePort: Int?
    ) throws(BenchFailure) -> (seconds: Double, cpuSeconds: Double, scrapes: Int, failed: Int) {
        let cpuBefore = Self.childrenCPUSeconds()
        let start = BenchClock.now()
        let agent = try Subprocess.spawn(
            options.agent, ["run", "--config", config, "--replay", capture, "--speed", "max"],
            stdout: scratch.path("metrics-agent.out"), stderr: scratch.path("metrics-agent.err"))
        let scraper = scrapePort.map { MetricsScraper(port: $0, interval: Self.scrapeInterval) }
        scraper?.start()
        agent.waitUntilExit()
        let seconds = Double(BenchClock.now() - start) / 1e9
        let counts = scraper?.stop() ?? (ok: 0, failed: 0)
        guard agent.terminationStatus == 0 else {
            throw BenchFailure("agent exited \(agent.terminationStatus); see BENCH_KEEP_SCRATCH=1 metrics-agent.err")
        }
        // The agent is the only child reaped in between (the broker runs on), so this is its CPU time.
        return (seconds, Self.childrenCPUSeconds() - cpuBefore, counts.ok, counts.failed)
    }

    /// User and system time of the reaped children so far.
    private static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        let t = { (v: timeval) in Double(v.tv_sec) + Double(v.tv_usec) / 1e6 }
        return t(usage.ru_utime) + t(usage.ru_stime)
    }
}
