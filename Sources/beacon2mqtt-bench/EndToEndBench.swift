import Foundation

/// Section `e2e`: the real agent (`beacon2mqtt run --replay FILE --speed max`) publishing into a
/// private mosquitto on loopback, with a subscriber counting what arrives. The expected enter/exit
/// count comes from a dry `beacon2mqtt replay FILE --output jsonl` of the same capture and config.
struct EndToEndBench {
    var options: BenchOptions
    var scratch: ScratchDirectory

    static let exitTimeout = 10

    /// What the dry replay says the agent must publish.
    struct Expectation {
        var messages = 0
        var enters = 0
        var exits = 0
    }

    func expectation(capture: String, config: String) throws(BenchFailure) -> Expectation {
        let output = try Subprocess.run(
            options.agent, ["replay", capture, "--config", config, "--output", "jsonl"], in: scratch)
        guard output.status == 0 else {
            throw BenchFailure("dry replay failed (\(output.status)): \(output.stderr.suffix(300))")
        }
        var e = Expectation()
        for line in output.stdout.split(separator: "\n") {
            e.messages += 1
            guard line.contains("/event\"") else { continue }
            if line.contains("\\\"event\\\":\\\"enter\\\"") || line.contains("\"event\":\"enter\"") { e.enters += 1 }
            if line.contains("\\\"event\\\":\\\"exit\\\"") || line.contains("\"event\":\"exit\"") { e.exits += 1 }
        }
        return e
    }

    static let throughputName = "replay --speed max → mosquitto"

    func run(into report: inout BenchReport) throws(BenchFailure) {
        if options.includes(Self.throughputName) { try throughput(into: &report) }
        if options.includes(LatencyProbe.name) {
            let broker = try PrivateBroker(scratch: scratch)
            defer { broker.stop() }
            try LatencyProbe(options: options, scratch: scratch).run(port: broker.port, into: &report)
        }
    }

    func throughput(into report: inout BenchReport) throws(BenchFailure) {
        guard FileManager.default.isExecutableFile(atPath: options.agent) else {
            throw BenchFailure("no agent at \(options.agent) (swift build -c release --product beacon2mqtt)")
        }
        let population = BeaconPopulation(beacons: 20_000, regions: 100)
        let capture = scratch.path("e2e.btsnoop")
        let reports = try CaptureWorkloads.cohorts(
            reports: options.e2eReports, population: population, exitTimeout: Self.exitTimeout, to: capture)
        let broker = try PrivateBroker(scratch: scratch)
        defer { broker.stop() }
        var file = AgentConfigFile(port: broker.port, regions: population.allRegions, telemetry: options.agentTelemetry)
        file.maxTracked = 32_768
        file.exitTimeout = "\(Self.exitTimeout)s"
        let config = try scratch.write(file.yaml, to: "e2e.yaml")
        let expected = try expectation(capture: capture, config: config)
        guard expected.enters > 0, expected.exits > 0 else {
            throw BenchFailure("the dry replay published no enter/exit (\(expected)); check the config keys")
        }

        let tally = try MQTTTally(port: broker.port, topic: "beacons/#")
        defer { tally.stop() }
        let start = BenchClock.now()
        let agent = try Subprocess.spawn(
            options.agent, ["run", "--config", config, "--replay", capture, "--speed", "max"],
            stdout: scratch.path("e2e-agent.out"), stderr: scratch.path("e2e-agent.err"))
        let counts = tally.wait(idle: 10) { c in
            !agent.isRunning && c.enters >= expected.enters && c.exits >= expected.exits
        }
        Subprocess.stop(agent)
        // Sustained: from the first message the broker delivered (the agent is up, connected and
        // has read its retained states) to the last one; start-up time is reported on its own.
        let seconds = Double(max(counts.lastArrival, counts.firstArrival + 1) - counts.firstArrival) / 1e9
        let startup = Double(max(counts.firstArrival, start) - start) / 1e9

        var result = BenchResult(section: "e2e", name: Self.throughputName)
        result.add("reports", Double(reports), "reports")
        result.add("reports_per_s", Double(reports) / seconds, "reports/s")
        result.addHeadroom(reportsPerSecond: Double(reports) / seconds)
        result.add("startup_s", startup, "s start-up", decimals: 2)
        result.add("messages_per_s", Double(counts.messages) / seconds, "msg/s")
        result.add("enter_exit_expected", Double(expected.enters + expected.exits), "enter+exit expected")
        result.add("enter_exit_lost", Double(expected.enters + expected.exits - counts.enters - counts.exits), "lost")
        result.add("messages_received", Double(counts.messages), "msg received")
        result.add("messages_expected", Double(expected.messages), "msg in dry replay")
        let lost = expected.enters + expected.exits - counts.enters - counts.exits
        let fast = Double(reports) / seconds >= 100_000
        result.note = "target ≥ 100k reports/s, 0 lost: " + (fast && lost == 0 ? "met" : "MISSED")
        if agent.terminationStatus != 0, agent.terminationReason == .exit {
            result.note += "; agent exit \(agent.terminationStatus), see BENCH_KEEP_SCRATCH=1"
        }
        report.add(result)
    }
}
