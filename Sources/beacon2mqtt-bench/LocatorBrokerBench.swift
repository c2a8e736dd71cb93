import BeaconCore
import BeaconWire
import Foundation
import MessageContract

/// Section `locator-broker`: the real `beacon2mqtt locate` process (release build, wall clock,
/// default rule) fed through a private mosquitto on loopback with the proximity messages N
/// gateways × M beacons publish (`MessageComposer`, the same stream as section `locator`: each
/// beacon heard by three gateways once a second, 5 % of them moving every 20 s), paced in real
/// time in 50 ms slots and stamped with the wall clock as a gateway stamps them.
///
/// Figures: messages in per CPU second of the `locate` process (utime + stime from /proc, all its
/// threads: libmosquitto's network thread, the decision loop), its CPU share, the decision latency
/// (a location's arrival at a subscriber minus its `since`, the tick whose readings decided it:
/// `settle` plus what deciding and delivering cost; target p99 ≤ settle + 50 ms), and its resident
/// memory over an idle `locate` per tracked beacon.
struct LocatorBrokerBench {
    var options: BenchOptions
    var scratch: ScratchDirectory

    static let settle = 1.0
    static let slots = 20  // 50 ms each
    static let warmUp = 5

    static func name(_ site: LocatorBench.Site) -> String { "\(site.name) through mosquitto" }

    func run(into report: inout BenchReport) throws(BenchFailure) {
        guard FileManager.default.isExecutableFile(atPath: options.agent) else {
            throw BenchFailure("no agent at \(options.agent) (swift build -c release --product beacon2mqtt)")
        }
        let sites: [LocatorBench.Site] =
            options.quick
            ? [.init(gateways: 10, beacons: 200), .init(gateways: 50, beacons: 2_000)]
            : [
                .init(gateways: 10, beacons: 200), .init(gateways: 50, beacons: 2_000), .init(gateways: 500, beacons: 2_000),
                .init(gateways: 50, beacons: 20_000), .init(gateways: 500, beacons: 20_000),
            ]
        for site in sites where options.includes(Self.name(site)) {
            report.add(try measure(site, seconds: options.quick ? 25 : 45))
        }
    }

    /// Realtime minus monotonic, ns: turns an arrival (monotonic) into the wall time a `since` is in.
    static func realtimeOffset() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return (Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)) - Int64(BenchClock.now())
    }

    private func measure(_ site: LocatorBench.Site, seconds: Int) throws(BenchFailure) -> BenchResult {
        let broker = try PrivateBroker(scratch: scratch)
        defer { broker.stop() }
        let config = try scratch.write(
            """
            gateway:
              id: bench
            mqtt:
              host: 127.0.0.1
              port: \(broker.port)
              base_topic: beacons
              client_id: beacon2mqtt-bench
            locator:
              settle: \(Int(Self.settle * 1000))ms

            """, to: "locate-\(site.beacons).yaml")
        let watch = try MQTTTally(
            port: broker.port, topic: "beacons/+/+/+/location", also: ["beacons/locators/+/status"],
            keeping: ["/location"])
        defer { watch.stop() }
        let locate = try Subprocess.spawn(
            options.agent, ["locate", "--config", config], stdout: scratch.path("locate.out"),
            stderr: scratch.path("locate-\(site.beacons).err"))
        defer { Subprocess.stop(locate) }
        _ = watch.wait(idle: 10) { $0.messages > 0 }  // its retained online status
        BenchClock.sleep(0.5)  // its subscriptions
        let probe = ProcessProbe(pid: locate.processIdentifier)
        guard let idle = probe.sample() else { throw BenchFailure("locate exited at start; see locate-\(site.beacons).err") }

        let publisher = try MQTTPublisher(port: broker.port, clientID: "beacon2mqtt-bench-gateways")
        defer { publisher.stop() }
        var composers = LocatorBench.composers(site)
        let offset = Self.realtimeOffset()
        let start = BenchClock.now()
        var from: (sample: ProcessProbe.Sample, published: Int, at: UInt64)?
        let brokerProbe = ProcessProbe(pid: broker.pid)
        var brokerFrom: ProcessProbe.Sample?
        var round: [OutboundMessage] = []
        for second in 0..<seconds {
            if second == Self.warmUp, let s = probe.sample() {
                from = (s, publisher.published, BenchClock.now())
                brokerFrom = brokerProbe.sample()
            }
            for slot in 0..<Self.slots {
                let due = start + UInt64(second * Self.slots + slot) * 1_000_000_000 / UInt64(Self.slots)
                let now = BenchClock.now()
                if due > now { BenchClock.sleep(Double(due - now) / 1e9) }
                let stamp = Timestamp(microseconds: (Int64(BenchClock.now()) + offset) / 1000)
                round.removeAll(keepingCapacity: true)
                LocatorBench.round(
                    site, second: second, at: stamp, beacons: stride(from: slot, to: site.beacons, by: Self.slots),
                    composers: &composers, into: &round)
                for m in round { publisher.publish(m.topic, Array(m.payload.text.utf8)) }
            }
        }
        guard let from, let to = probe.sample(), let brokerTo = brokerProbe.sample(), let brokerFrom else {
            throw BenchFailure("locate exited; see locate-\(site.beacons).err")
        }
        let brokerCPU = ProcessProbe.cpuPercent(from: brokerFrom, to: brokerTo)
        let published = publisher.published - from.published
        let wall = Double(to.at - from.at) / 1e9
        // The last ticks: settle, then the decision.
        let counts = watch.wait(idle: Self.settle + 2) { _ in false }

        let locations = counts.kept.count
        guard locations >= site.beacons else {
            throw BenchFailure("\(Self.name(site)): \(locations) locations for \(site.beacons) beacons")
        }
        // Per location: arrival − since. The first of each tick is the decision's latency; the rest
        // also wait for the tick's other locations ahead of them (the QoS 1 window of 64). The
        // first tick places every beacon at once: it is the start-up, reported on its own.
        var perTick: [Int64: [Double]] = [:]
        for (_, payload, arrival) in counts.kept {
            guard let o = try? JSONObject(payload), let text = o.string("since"),
                let since = RetainedAttributes.timestamp(rfc3339: text)
            else { continue }
            perTick[since.microseconds, default: []].append(Double((Int64(arrival) + offset) / 1000 - since.microseconds) / 1e3)
        }
        let startTick = perTick.keys.min() ?? 0
        let startUp = perTick[startTick]?.max() ?? 0
        let latencies = perTick.filter { $0.key != startTick }.values.flatMap { $0 }.sorted()
        let decisions = perTick.filter { $0.key != startTick }.values.compactMap { $0.min() }.sorted()
        guard !latencies.isEmpty, !decisions.isEmpty else {
            throw BenchFailure("\(Self.name(site)): no location after the first tick")
        }
        func percentile(_ p: Double, _ v: [Double] = latencies) -> Double { v[min(v.count - 1, Int(p * Double(v.count)))] }
        let cpu = Double(to.cpuTicks - from.sample.cpuTicks) / ProcessProbe.ticksPerSecond
        var r = BenchResult(section: "locator-broker", name: Self.name(site))
        r.add("messages_per_s", Double(published) / max(cpu, 1e-9), "msg/s/core")
        r.add("input_per_s", Double(published) / wall, "msg/s in")
        r.add("cpu_percent", cpu / wall * 100, "% CPU", decimals: 1)
        r.add("decision_p50_ms", percentile(0.5, decisions), "ms first of tick p50")
        r.add("decision_max_ms", decisions.last ?? 0, "ms first of tick max")
        r.add("latency_p50_ms", percentile(0.5), "ms p50")
        r.add("latency_p99_ms", percentile(0.99), "ms p99")
        r.add("latency_max_ms", latencies.last ?? 0, "ms max")
        r.add("broker_cpu_percent", brokerCPU, "% CPU mosquitto", decimals: 1)
        r.add("locations", Double(locations), "locations")
        r.add("start_up_ms", startUp, "ms to place all (first tick)")
        r.add("rss_mib", Double(to.rssKiB) / 1024, "MiB", decimals: 1)
        r.add("bytes_per_beacon", Double((to.anonRSSKiB - idle.anonRSSKiB) * 1024) / Double(site.beacons), "B anon/beacon")
        let target = Self.settle * 1000 + 50
        r.note =
            "settle \(Int(Self.settle * 1000)) ms; target p99 ≤ \(Int(target)) ms: "
            + (percentile(0.99) <= target ? "met" : "MISSED") + " (first of tick max \(Int(decisions.last ?? 0)) ms)" + (publisher.refused > 0 ? "; \(publisher.refused) refused" : "")
        return r
    }
}
