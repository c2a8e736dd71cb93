import BeaconCore
import BeaconWire
import Foundation
import Glibc
import Platform
import Vocabulary

/// Report → enter latency of the daemon itself: `beacon2mqtt run --replay FIFO --speed max` reads a
/// btsnoop stream this probe writes into a FIFO in real time at a realistic 3,000 reports/s (500
/// beacons already inside, plus a new beacon every 10 ms), and publishes into a private mosquitto.
/// The clock starts just before the record that makes a beacon enter is written to the FIFO (as a
/// controller's report reaches the HCI socket), and stops when the counting subscriber receives that
/// beacon's enter event from the broker. So it includes the daemon's source thread, queue, pipeline
/// (with the 1 s ranging ticks' proximity bursts), outbox and MQTT thread, and the broker.
struct LatencyProbe {
    var options: BenchOptions
    var scratch: ScratchDirectory

    static let name = "latency report → enter received"
    static let rate = 3_000
    static let newBeaconEvery = 30  // reports: 100 new beacons per second
    /// An enter is "at a tick" when a proximity message arrived from 10 ms before to 40 ms after
    /// it was written: the pipeline thread was composing or publishing a ranging tick's per-beacon
    /// burst while the enter waited (nanoseconds).
    static let tickWindow: ClosedRange<Int64> = -10_000_000...40_000_000

    /// The enter event's topic of a report (the agent's `beacons/<uuid>/<major>/<minor>/<gateway>/event`).
    static func enterTopic(_ report: [UInt8]) -> String? {
        guard let r = try? HCIPacketDecoder.decode(report).reports.first,
            let id = BeaconDecoder.firstIdentifiedBeacon(inAD: r.data)?.identity, id.scheme == .uuid
        else { return nil }
        return "beacons/\(id.id.uuidString)/\(id.major)/\(id.minor)/bench/event"
    }

    func run(port: Int, into report: inout BenchReport) throws(BenchFailure) {
        // Every report read as it arrives: the daemon's own latency. The default (`adaptive`) holds
        // reads at this rate, and the footprint section's live rows measure that hold.
        var file = AgentConfigFile(port: port, telemetry: options.agentTelemetry)
        file.readInterval = "0"
        let config = try scratch.write(file.yaml, to: "latency.yaml")
        let fifo = scratch.path("latency.fifo")
        guard mkfifo(fifo, 0o600) == 0 else { throw BenchFailure("mkfifo \(fifo) failed") }
        let background = BeaconPopulation(beacons: 500, regions: 1)
        // The proximity messages mark the ranging ticks (a burst of them, once a second).
        let tally = try MQTTTally(
            port: port, topic: "beacons/+/+/+/+/event", also: ["beacons/+/+/+/+/proximity"], keeping: ["/proximity"])
        defer { tally.stop() }
        let agent = try Subprocess.spawn(
            options.agent, ["run", "--config", config, "--replay", fifo, "--speed", "max"],
            stdout: scratch.path("latency-agent.out"), stderr: scratch.path("latency-agent.err"))
        defer { Subprocess.stop(agent) }
        // Blocks until the agent opens the FIFO for reading.
        let fd = open(fifo, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchFailure("cannot open \(fifo)") }
        var open = true
        defer { if open { close(fd) } }
        func write(_ bytes: [UInt8]) { try? Syscall.writeAll(fd, bytes) { SystemCallError("write \(fifo)", code: $0) } }

        let seconds = options.quick ? 2 : 4
        let newcomers = BeaconPopulation(beacons: Self.rate * seconds / Self.newBeaconEvery + 1, regions: 1)
        let origin = BenchClock.now()
        let epoch = CaptureWorkloads.origin
        func record(_ bytes: [UInt8], at t: UInt64) -> [UInt8] {
            BtsnoopWriter.record(
                CapturedPacket(timestamp: epoch + TimeSpan(microseconds: Int64((t - origin) / 1000)), bytes: bytes))
        }
        // The background beacons enter first (not measured), then the paced run.
        var head = BtsnoopWriter.fileHeader()
        for i in 0..<background.beacons { head += record(background.report(i, sequence: 0), at: BenchClock.now()) }
        write(head)
        _ = tally.wait(idle: 5) { $0.enters >= background.beacons }
        var written: [String: UInt64] = [:]
        let interval = 1e9 / Double(Self.rate)
        let start = BenchClock.now()
        var newcomer = 0
        for n in 0..<(Self.rate * seconds) {
            let due = start + UInt64(Double(n) * interval)
            // Sleep, not spin: on a 2-core machine a spinning feeder would steal the core the
            // agent and the broker need.
            let now = BenchClock.now()
            if due > now { BenchClock.sleep(Double(due - now) / 1e9) }
            if n % Self.newBeaconEvery == 0 {
                // Distinct UUID space: a newcomer never collides with a background beacon.
                var bytes = newcomers.report(newcomer, sequence: 0)
                bytes[bytes.count - 22] ^= 0xFF
                newcomer += 1
                let t0 = BenchClock.now()
                write(record(bytes, at: t0))
                if let topic = Self.enterTopic(bytes) { written[topic] = t0 }
            } else {
                write(record(background.report(n % background.beacons, sequence: n), at: BenchClock.now()))
            }
        }
        let counts = tally.wait(idle: 2) { c in written.keys.allSatisfy { c.enterArrivals[$0] != nil } }
        close(fd)
        open = false
        var latencies: [Double] = []
        var betweenTicks: [Double] = []
        let proximity = counts.kept.map { $0.arrival }
        // A tick: proximity messages with no gap of 100 ms between them; counted by the bursts.
        let ticks =
            zip(proximity.dropFirst(), proximity).filter { $0 &- $1 > 100_000_000 }.count + (proximity.isEmpty ? 0 : 1)
        for (topic, t0) in written {
            guard let t1 = counts.enterArrivals[topic] else { continue }
            let latency = Double(t1 &- t0) / 1e6
            latencies.append(latency)
            if !proximity.contains(where: { Self.tickWindow.contains(Int64(bitPattern: $0 &- t0)) }) {
                betweenTicks.append(latency)
            }
        }
        latencies.sort()
        betweenTicks.sort()
        guard !latencies.isEmpty else {
            throw BenchFailure("no enter event arrived at the subscriber (see BENCH_KEEP_SCRATCH=1, latency-agent.err)")
        }
        func percentile(_ p: Double, of values: [Double] = latencies) -> Double {
            values.isEmpty ? .nan : values[min(values.count - 1, Int(p * Double(values.count)))]
        }
        var result = BenchResult(section: "e2e", name: Self.name)
        result.add("latency_p50_ms", percentile(0.5), "ms p50", decimals: 3)
        result.add("latency_p99_ms", percentile(0.99), "ms p99", decimals: 3)
        result.add("latency_max_ms", latencies.last!, "ms max", decimals: 3)
        result.add("enters_measured", Double(latencies.count), "enters")
        result.add("enters_lost", Double(written.count - latencies.count), "lost")
        // The tail's cause: enters written while a ranging tick was being composed and published.
        result.add(
            "latency_p99_between_ticks_ms", percentile(0.99, of: betweenTicks), "ms p99 between ticks", decimals: 3)
        result.add("enters_at_ticks", Double(latencies.count - betweenTicks.count), "at ticks")
        result.add("ticks_seen", Double(ticks), "ticks")
        result.add("proximity_messages", Double(proximity.count), "proximity messages")
        result.note =
            "daemon fed through a FIFO at \(Self.rate) reports/s, read_interval 0; target p99 ≤ 1 ms: "
            + (percentile(0.99) <= 1 ? "met" : "MISSED")
        report.add(result)
    }
}
