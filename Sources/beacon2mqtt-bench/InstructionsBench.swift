import Foundation

/// Section `instructions`: instructions per report in the daemon, per thread, counted by callgrind
/// (valgrind): a count, not a time, so it repeats on a shared machine, where `perf stat`'s
/// hardware counters are not available. `beacon2mqtt run` replays 3,000 reports/s from 500 beacons
/// at capture speed twice, a short and a long capture; the difference in instructions over the
/// difference in reports cancels start-up (configuration, libraries) and shut-down.
struct InstructionsBench {
    var options: BenchOptions
    var scratch: ScratchDirectory

    static let valgrind = "/usr/bin/valgrind"
    static let rate = 3_000

    /// Instructions of one run, per thread role.
    struct Count {
        var byRole: [String: Int] = [:]
        var total: Int { byRole.values.reduce(0, +) }
    }

    func run(into report: inout BenchReport) throws(BenchFailure) {
        guard FileManager.default.isExecutableFile(atPath: Self.valgrind) else {
            throw BenchFailure("needs valgrind (scripts/install-deps.sh installs it)")
        }
        guard FileManager.default.isExecutableFile(atPath: options.agent) else {
            throw BenchFailure("no agent at \(options.agent) (swift build -c release --product beacon2mqtt)")
        }
        let broker = try PrivateBroker(scratch: scratch)
        defer { broker.stop() }
        let population = BeaconPopulation(beacons: 500, regions: 10)
        let config = try scratch.write(
            AgentConfigFile(port: broker.port, regions: population.allRegions, telemetry: options.agentTelemetry).yaml,
            to: "instructions.yaml")
        let (shortSeconds, longSeconds) = options.quick ? (4, 12) : (10, 40)
        var counts: [(reports: Int, count: Count)] = []
        for seconds in [shortSeconds, longSeconds] {
            let capture = scratch.path("instructions-\(seconds)s.btsnoop")
            let reports = try CaptureWorkloads.steady(
                beacons: 500, regions: 10, rate: Self.rate, seconds: seconds, to: capture)
            counts.append((reports, try count(config: config, capture: capture, label: "instructions-\(seconds)s")))
        }
        let reports = Double(counts[1].reports - counts[0].reports)
        let perReport = { (role: String?) -> Double in
            let long = role.map { counts[1].count.byRole[$0] ?? 0 } ?? counts[1].count.total
            let short = role.map { counts[0].count.byRole[$0] ?? 0 } ?? counts[0].count.total
            return Double(long - short) / reports
        }
        var r = BenchResult(
            section: "instructions",
            name: "3,000 reports/s, 500 beacons, capture speed, \(longSeconds - shortSeconds) s")
        r.add("instructions_per_report", perReport(nil), "instructions/report (all threads)", decimals: 0)
        for role in ["pipeline", "mqtt", "source", "other"] {
            r.add("\(role)_instructions_per_report", perReport(role), role, decimals: 0)
        }
        r.note =
            "callgrind Ir, (long − short run) ÷ (long − short reports); source is the capture replay and the turns it runs while the pipeline thread waits"
        report.add(r)
    }

    /// Runs the agent under callgrind, one output file per thread, and sums each thread's
    /// instructions under the role its entry function names.
    private func count(config: String, capture: String, label: String) throws(BenchFailure) -> Count {
        let out = scratch.path("\(label).callgrind")
        let result = try Subprocess.run(
            Self.valgrind,
            [
                "--tool=callgrind", "--separate-threads=yes", "--callgrind-out-file=\(out)",
                options.agent, "run", "--config", config, "--replay", capture, "--speed", "1",
            ], in: scratch)
        guard result.status == 0 else {
            throw BenchFailure("the agent under callgrind exited \(result.status): \(result.stderr.suffix(400))")
        }
        let directory = (out as NSString).deletingLastPathComponent
        let prefix = (out as NSString).lastPathComponent + "-"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
            $0.hasPrefix(prefix)
        }
        guard !files.isEmpty else { throw BenchFailure("callgrind wrote no per-thread profiles") }
        var count = Count()
        for file in files {
            guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8),
                let summary = text.split(separator: "\n").first(where: { $0.hasPrefix("summary: ") }),
                let instructions = Int(summary.dropFirst("summary: ".count).split(separator: " ").first ?? "")
            else { throw BenchFailure("cannot read \(file)") }
            count.byRole[Self.role(of: text), default: 0] += instructions
        }
        return count
    }

    /// The thread's role, from the functions its profile names (mangled Swift names): the main
    /// thread (the pipeline's loop) is the one that ran `main`; the source thread, which
    /// `Agent.startSource` starts, runs pipeline turns too and publishes through `MosquittoClient`.
    static func role(of profile: String) -> String {
        if profile.contains("beacon2mqtt_main") { return "pipeline" }
        if profile.contains("startSource") { return "source" }
        if profile.contains("MosquittoClient") { return "mqtt" }
        return "other"
    }
}
