import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import Vocabulary

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
/// memory over an idle `locate` per tracked beacon. Locations after a beacon's first (its moves)
/// are also timed apart from the start-up's placements. The largest site runs again on two sharded
/// `locate`s (`locator.shard` 1/2 and 2/2) on the same broker, each figure per shard.
struct LocatorBrokerBench {
    var options: BenchOptions
    var scratch: ScratchDirectory

    static let settle = 1.0
    static let slots = 20  // 50 ms each
    static let warmUp = 5

    static func name(_ site: LocatorBench.Site, shards: Int = 1) -> String {
        site.name + (shards > 1 ? " on \(shards) shards" : "") + " through mosquitto"
    }

    func run(into report: inout BenchReport) throws(BenchFailure) {
        guard FileManager.default.isExecutableFile(atPath: options.agent) else {
            throw BenchFailure("no agent at \(options.agent) (swift build -c release --product beacon2mqtt)")
        }
        let sites: [LocatorBench.Site] =
            options.quick
            ? [.init(gateways: 10, beacons: 200), .init(gateways: 50, beacons: 2_000)]
            : [
                .init(gateways: 10, beacons: 200), .init(gateways: 50, beacons: 2_000),
                .init(gateways: 500, beacons: 2_000),
                .init(gateways: 50, beacons: 20_000), .init(gateways: 500, beacons: 20_000),
            ]
        for site in sites where options.includes(Self.name(site)) {
            report.add(try measure(site, seconds: options.quick ? 25 : 45))
        }
        // The largest site again on two sharded `locate`s (`locator.shard` 1/2 and 2/2), to compare with one.
        let sharded = LocatorBench.Site(gateways: 500, beacons: 20_000)
        if !options.quick, options.includes(Self.name(sharded, shards: 2)) {
            report.add(try measure(sharded, shards: 2, seconds: 45))
        }
    }

    /// Realtime minus monotonic, ns: turns an arrival (monotonic) into the wall time a `since` is in.
    static func realtimeOffset() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return (Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)) - Int64(BenchClock.now())
    }

    private func measure(_ site: LocatorBench.Site, shards: Int = 1, seconds: Int) throws(BenchFailure) -> BenchResult {
        let broker = try PrivateBroker(scratch: scratch)
        defer { broker.stop() }
        let watch = try MQTTTally(
            port: broker.port, topic: "beacons/+/+/+/location", also: ["beacons/locators/+/status"],
            keeping: ["/location"])
        defer { watch.stop() }
        // One `locate`, or `shards` of them with `locator.shard: k/n`, each its own id and client id.
        var locates: [Process] = []
        defer { for locate in locates { Subprocess.stop(locate) } }
        for k in 1...shards {
            let label = shards == 1 ? "\(site.beacons)" : "\(site.beacons)-shard\(k)"
            let config = try scratch.write(
                """
                gateway:
                  id: bench\(shards == 1 ? "" : "-\(k)")
                mqtt:
                  host: 127.0.0.1
                  port: \(broker.port)
                  base_topic: beacons
                  client_id: beacon2mqtt-bench\(shards == 1 ? "" : "-\(k)")
                locator:
                  settle: \(Int(Self.settle * 1000))ms
                \(shards == 1 ? "" : "  shard: \(k)/\(shards)\n")
                """, to: "locate-\(label).yaml")
            locates.append(
                try Subprocess.spawn(
                    options.agent, ["locate", "--config", config], stdout: scratch.path("locate.out"),
                    stderr: scratch.path("locate-\(label).err")))
        }
        _ = watch.wait(idle: 10) { $0.messages >= shards }  // their retained online status
        BenchClock.sleep(0.5)  // their subscriptions
        let probes = locates.map { ProcessProbe(pid: $0.processIdentifier) }
        let idle = probes.compactMap { $0.sample() }
        guard idle.count == shards else {
            throw BenchFailure("locate exited at start; see locate-\(site.beacons)*.err")
        }

        let publisher = try MQTTPublisher(port: broker.port, clientID: "beacon2mqtt-bench-gateways")
        defer { publisher.stop() }
        var composers = LocatorBench.composers(site)
        let offset = Self.realtimeOffset()
        let start = BenchClock.now()
        var from: (samples: [ProcessProbe.Sample], published: Int, at: UInt64)?
        let brokerProbe = ProcessProbe(pid: broker.pid)
        var brokerFrom: ProcessProbe.Sample?
        var round: [OutboundMessage] = []
        for second in 0..<seconds {
            if second == Self.warmUp {
                from = (probes.compactMap { $0.sample() }, publisher.published, BenchClock.now())
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
        let to = probes.compactMap { $0.sample() }
        guard let from, from.samples.count == shards, to.count == shards, let brokerTo = brokerProbe.sample(),
            let brokerFrom
        else { throw BenchFailure("locate exited; see locate-\(site.beacons)*.err") }
        let brokerCPU = ProcessProbe.cpuPercent(from: brokerFrom, to: brokerTo)
        let published = publisher.published - from.published
        let wall = Double(to[0].at - from.at) / 1e9
        // The last ticks: settle, then the decision.
        let counts = watch.wait(idle: Self.settle + 2) { _ in false }

        let locations = counts.kept.count
        guard locations >= site.beacons else {
            throw BenchFailure("\(Self.name(site, shards: shards)): \(locations) locations for \(site.beacons) beacons")
        }
        // Per location: arrival − since. The first of each tick is the decision's latency; the rest
        // also wait for the tick's other locations ahead of them (the locator's QoS 1 window). The
        // first tick places every beacon at once: it is the start-up, reported on its own.
        // A beacon's first location places it (a fresh site's start-up, which takes a tick or two as
        // the first readings come in); the later ones are its moves, timed on their own as well.
        var perTick: [Int64: [Double]] = [:]
        var placed = Set<String>()
        var moves: [Double] = []
        for (topic, payload, arrival) in counts.kept {
            guard let o = try? JSONObject(payload), let text = o.string("since"),
                let since = RetainedAttributes.timestamp(rfc3339: text)
            else { continue }
            let latency = Double((Int64(arrival) + offset) / 1000 - since.microseconds) / 1e3
            perTick[since.microseconds, default: []].append(latency)
            if !placed.insert(topic).inserted { moves.append(latency) }
        }
        moves.sort()
        let startTick = perTick.keys.min() ?? 0
        let startUp = perTick[startTick]?.max() ?? 0
        let latencies = perTick.filter { $0.key != startTick }.values.flatMap { $0 }.sorted()
        let decisions = perTick.filter { $0.key != startTick }.values.compactMap { $0.min() }.sorted()
        guard !latencies.isEmpty, !decisions.isEmpty else {
            throw BenchFailure("\(Self.name(site, shards: shards)): no location after the first tick")
        }
        func percentile(_ p: Double, _ v: [Double] = latencies) -> Double {
            v[min(v.count - 1, Int(p * Double(v.count)))]
        }
        // Every shard reads every message (another shard's is skipped after its topic): per shard,
        // messages in per its own CPU second; the busiest shard is the one that falls behind first.
        let cpus = (0..<shards).map {
            Double(to[$0].cpuTicks - from.samples[$0].cpuTicks) / ProcessProbe.ticksPerSecond
        }
        let cpu = cpus.max() ?? 0
        var r = BenchResult(section: "locator-broker", name: Self.name(site, shards: shards))
        r.add(
            "messages_per_s", Double(published) / max(cpu, 1e-9),
            shards == 1 ? "msg/s/core" : "msg/s/core (busiest shard)")
        r.add("input_per_s", Double(published) / wall, "msg/s in")
        r.add("cpu_percent", cpu / wall * 100, shards == 1 ? "% CPU" : "% CPU (busiest shard)", decimals: 1)
        if shards > 1 { r.add("cpu_percent_total", cpus.reduce(0, +) / wall * 100, "% CPU all shards", decimals: 1) }
        r.add("decision_p50_ms", percentile(0.5, decisions), "ms first of tick p50")
        r.add("decision_max_ms", decisions.last ?? 0, "ms first of tick max")
        r.add("latency_p50_ms", percentile(0.5), "ms p50")
        r.add("latency_p99_ms", percentile(0.99), "ms p99")
        r.add("latency_max_ms", latencies.last ?? 0, "ms max")
        if !moves.isEmpty {
            r.add("move_p99_ms", percentile(0.99, moves), "ms p99 of moves")
            r.add("move_max_ms", moves.last ?? 0, "ms max of moves")
        }
        r.add("broker_cpu_percent", brokerCPU, "% CPU mosquitto", decimals: 1)
        r.add("locations", Double(locations), "locations")
        r.add("start_up_ms", startUp, "ms to place all (first tick)")
        r.add(
            "rss_mib", Double(to.map(\.rssKiB).max() ?? 0) / 1024, shards == 1 ? "MiB" : "MiB (largest shard)",
            decimals: 1)
        // Each shard tracks its own beacons: the anonymous memory all shards grew by, per beacon of the site.
        let grown = (0..<shards).reduce(0) { $0 + to[$1].anonRSSKiB - idle[$1].anonRSSKiB }
        r.add("bytes_per_beacon", Double(grown * 1024) / Double(site.beacons), "B anon/beacon")
        let target = Self.settle * 1000 + 50
        r.note =
            "settle \(Int(Self.settle * 1000)) ms; target p99 ≤ \(Int(target)) ms: "
            + (percentile(0.99) <= target ? "met" : "MISSED")
            + " (first of tick max \(Int(decisions.last ?? 0)) ms; moves "
            + (moves.isEmpty ? "none" : (percentile(0.99, moves) <= target ? "met" : "MISSED")) + ")"
            + (publisher.refused > 0 ? "; \(publisher.refused) refused" : "") + "; "
            + Self.busiestTicks(perTick, from: startTick)
        return r
    }

    /// The ticks with the most locations (at most six), each as `+<s after the first tick>: <locations>
    /// in <first>–<last> ms`: which tick's output waits behind which.
    static func busiestTicks(_ perTick: [Int64: [Double]], from start: Int64) -> String {
        let busiest = perTick.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.prefix(6).sorted {
            $0.key < $1.key
        }
        return "ticks "
            + busiest.map { tick, arrivals in
                "+\((tick - start) / 1_000_000) s: \(arrivals.count) in \(Int(arrivals.min() ?? 0))–\(Int(arrivals.max() ?? 0)) ms"
            }.joined(separator: ", ")
    }
}
