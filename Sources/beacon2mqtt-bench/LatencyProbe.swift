import BeaconCore
import BeaconWire
import Foundation
import Gateway

/// Report → enter latency: `Pipeline` and the agent's `MosquittoClient` in this process, fed at a
/// realistic 3,000 reports/s (500 beacons already inside, plus a new beacon every 10 ms). The
/// clock starts just before the report that makes a beacon enter goes into the pipeline, and
/// stops when the counting subscriber receives that beacon's enter event from the broker.
/// (The daemon adds one hand-over between its pipeline and MQTT threads that this omits.)
struct LatencyProbe {
    var options: BenchOptions
    var scratch: ScratchDirectory

    static let name = "latency report → enter received"
    static let rate = 3_000
    static let newBeaconEvery = 30  // reports: 100 new beacons per second

    func run(port: Int, into report: inout BenchReport) throws(BenchFailure) {
        var configuration = Configuration()
        configuration.gateway.id = "bench"
        configuration.mqtt.host = "127.0.0.1"
        configuration.mqtt.port = port
        configuration.mqtt.clientID = "beacon2mqtt-bench-latency"
        let connection: MQTTConnectionOptions
        do { connection = try MQTTConnectionOptions(configuration: configuration) } catch {
            throw BenchFailure("MQTT options: \(error)")
        }
        let client = MosquittoClient(
            options: connection, logger: Logger(level: .error, sink: { _ in }), onEvent: { _ in })
        client.start()
        defer { client.stop(timeout: .seconds(2)) }
        guard client.waitForFirstAttempt(timeout: .seconds(5)) else {
            throw BenchFailure("the MQTT client cannot connect: \(client.lastFailure ?? "timeout")")
        }
        let tally = try MQTTTally(port: port, topic: "beacons/+/+/+/+/event")
        defer { tally.stop() }

        let seconds = options.quick ? 2 : 4
        let background = BeaconPopulation(beacons: 500, regions: 1)
        let newcomers = BeaconPopulation(beacons: Self.rate * seconds / Self.newBeaconEvery + 1, regions: 1)
        var pipeline = Pipeline(configuration: configuration)
        var messages: [OutboundMessage] = []
        var ingested: [String: UInt64] = [:]
        var unsent = 0
        let origin = BenchClock.now()
        let epoch = CaptureWorkloads.origin
        func feed(_ bytes: [UInt8], measured: Bool) {
            let t0 = BenchClock.now()
            let packet = CapturedPacket(
                timestamp: epoch + TimeSpan(microseconds: Int64((t0 - origin) / 1000)), bytes: bytes)
            pipeline.ingest(packet, into: &messages)
            for message in messages {
                if measured, message.kind == .event, message.payload.text.contains("\"enter\"") {
                    ingested[message.topic] = t0
                }
                if case .sent = client.publish(message) {} else { unsent += 1 }
            }
            messages.removeAll(keepingCapacity: true)
        }
        // The background beacons enter first (not measured), then the paced run.
        for i in 0..<background.beacons { feed(background.report(i, sequence: 0), measured: false) }
        _ = tally.wait(idle: 1) { $0.enters >= background.beacons }
        let interval = 1e9 / Double(Self.rate)
        let start = BenchClock.now()
        var newcomer = 0
        for n in 0..<(Self.rate * seconds) {
            let due = start + UInt64(Double(n) * interval)
            // Sleep, not spin: on a 2-core machine a spinning feeder would steal the core the
            // broker and the MQTT threads need.
            let now = BenchClock.now()
            if due > now { BenchClock.sleep(Double(due - now) / 1e9) }
            if n % Self.newBeaconEvery == 0 {
                // Distinct UUID space: a newcomer never collides with a background beacon.
                var bytes = newcomers.report(newcomer, sequence: 0)
                bytes[bytes.count - 22] ^= 0xFF
                feed(bytes, measured: true)
                newcomer += 1
            } else {
                feed(background.report(n % background.beacons, sequence: n), measured: false)
            }
        }
        let counts = tally.wait(idle: 2) { c in ingested.keys.allSatisfy { c.enterArrivals[$0] != nil } }
        var latencies: [Double] = []
        for (topic, t0) in ingested {
            if let t1 = counts.enterArrivals[topic] { latencies.append(Double(t1 &- t0) / 1e6) }
        }
        latencies.sort()
        guard !latencies.isEmpty else { throw BenchFailure("no enter event arrived at the subscriber") }
        func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(p * Double(latencies.count)))] }
        var result = BenchResult(section: "e2e", name: Self.name)
        result.add("latency_p50_ms", percentile(0.5), "ms p50", decimals: 3)
        result.add("latency_p99_ms", percentile(0.99), "ms p99", decimals: 3)
        result.add("latency_max_ms", latencies.last!, "ms max", decimals: 3)
        result.add("enters_measured", Double(latencies.count), "enters")
        result.add("enters_lost", Double(ingested.count - latencies.count), "lost")
        result.add("publish_refused", Double(unsent), "publish refused")
        result.note = "at \(Self.rate) reports/s; target p99 ≤ 2 ms: " + (percentile(0.99) <= 2 ? "met" : "MISSED")
        report.add(result)
    }
}
