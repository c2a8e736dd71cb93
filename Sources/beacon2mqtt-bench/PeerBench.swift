import Foundation

/// Section `peer`: the decode streams through bluetooth-data-tools in the venv, in this same
/// invocation, and the Swift/Python throughput ratio per stream.
struct PeerBench {
    var options: BenchOptions

    func run(
        swift: [DecodeBench.Measurement], scratch: ScratchDirectory, into report: inout BenchReport
    )
        throws(BenchFailure)
    {
        guard FileManager.default.isExecutableFile(atPath: options.peer.python) else {
            throw BenchFailure("no peer venv at \(options.peer.python) (scripts/bench.sh creates it)")
        }
        var arguments = [
            options.peer.script, "--reps", String(options.repetitions), "--min-seconds",
            String(options.minimumSeconds),
        ]
        for stream in DecodeWorkloads.all() {
            arguments.append(
                "\(stream.name)=\(try scratch.write(stream.lengthPrefixed, to: "peer-\(stream.name).bin"))")
        }
        let output = try Subprocess.run(options.peer.python, arguments, in: scratch)
        guard output.status == 0 else {
            throw BenchFailure("peer script failed (\(output.status)): \(output.stderr.suffix(400))")
        }
        for line in output.stdout.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let name = object["stream"] as? String, let ns = object["ns_per_report"] as? Double,
                let digest = (object["checksum"] as? String).flatMap({ UInt64($0) }),
                let mine = swift.first(where: { $0.stream == name })
            else { throw BenchFailure("unreadable peer output: \(line)") }
            guard digest == mine.tally.digest else {
                throw BenchFailure(
                    "peer decoded different beacons on \(name) (checksum \(digest) ≠ \(mine.tally.digest))")
            }
            var result = BenchResult(section: "peer", name: "bluetooth-data-tools \(name)")
            result.add("reports_per_s", 1e9 / ns, "reports/s")
            result.add("ns_per_report", ns, "ns/report", decimals: 1)
            let ratio = ns / mine.nanosecondsPerReport
            result.add("swift_over_python", ratio, "× (Swift/Python)", decimals: 1)
            result.note = ratio >= 20 ? "target ≥ 20×: met" : "target ≥ 20×: MISSED"
            report.add(result)
        }
    }
}
