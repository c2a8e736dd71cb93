import BeaconWire
import CLI
import Foundation
import Simulation
import Synchronization

/// Section `campus`: hundreds of simulated gateways in one process (`CampusHost`, each the real
/// gateway with its own MQTT connection) publishing to a mosquitto per floor, each bridged to a
/// central mosquitto where the real locator (`beacon2mqtt locate`) and the section's subscriber
/// are. Per load (gateways × beacons) it reports what reaches the centre, how late, what is lost,
/// and each process's CPU, and names the part nearest to its limit: the first bottleneck.
struct CampusBench {
    var options: BenchOptions
    var scratch: ScratchDirectory

    /// One process's CPU over the measured window, % of one core.
    struct Load {
        var name: String
        var percent: Double
        /// A single-threaded process (mosquitto, the locator's loop) saturates at 100 % of one core.
        var limit: Double
    }

    func run(into report: inout BenchReport) throws(BenchFailure) {
        guard Subprocess.which("mosquitto") != nil else {
            throw BenchFailure("skipped: mosquitto is not installed (scripts/install-deps.sh installs it)")
        }
        guard FileManager.default.isExecutableFile(atPath: options.agent) else {
            throw BenchFailure("no agent at \(options.agent) (swift build -c release --product beacon2mqtt)")
        }
        for gateways in options.campus.gateways { try point(gateways: gateways, into: &report) }
    }

    func generator(gateways: Int) -> FloorPlanGenerator {
        var g = FloorPlanGenerator()
        g.floors = max(1, min(options.campus.floors, gateways))
        g.gatewaysPerFloor = max(1, gateways / g.floors)
        g.beaconsPerGateway = options.campus.beacons
        g.seed = 18
        g.duration = Double(options.campus.warmup + options.campus.seconds + 60)
        return g
    }

    func point(gateways requested: Int, into report: inout BenchReport) throws(BenchFailure) {
        let g = generator(gateways: requested)
        if let problem = g.problem { throw BenchFailure(problem) }
        let plan = g.plan()
        let tag = "\(g.rooms)"
        let planFile = try scratch.write(plan.yamlText, to: "campus-\(tag).yaml")
        let floors = (1...g.floors).map(String.init)
        let brokers = try CampusBrokers(floors: floors, scratch: scratch, tag: tag)
        defer { brokers.stop() }
        // One gateway per floor has its proximity (QoS 0, which no in-flight window holds back) timed too.
        let sampled = floors.map { g.gatewayID(floor: Int($0)! - 1, room: 0) }
        let (centre, centreSubscriber) = try CampusTally.subscribe(
            port: brokers.central.port, central: true, sampled: sampled, id: "centre")
        defer { centreSubscriber.stop() }
        var floorTallies: [CampusTally] = []
        var subscribers: [BenchSubscriber] = []
        defer { for s in subscribers { s.stop() } }
        for (i, f) in brokers.floors.enumerated() {
            let (t, s) = try CampusTally.subscribe(port: f.broker.port, central: false, id: "floor\(i + 1)")
            floorTallies.append(t)
            subscribers.append(s)
        }
        let locatorConfig = try scratch.write(
            "gateway:\n  id: central\nmqtt:\n  host: 127.0.0.1\n  port: \(brokers.central.port)\n  base_topic: beacons\n",
            to: "campus-\(tag)-locate.yaml")
        let locate = try Subprocess.spawn(
            options.agent, ["locate", "--config", locatorConfig], stderr: scratch.path("campus-\(tag)-locate.log"))
        defer { Subprocess.stop(locate) }
        var hosts: [Process] = []
        defer { for h in hosts { Subprocess.stop(h, grace: 45) } }
        for (k, first) in stride(from: 0, to: plan.gateways.count, by: Self.gatewaysPerHost).enumerated() {
            var arguments = [
                "campus-gateways", "--plan", planFile, "--first", "\(first)", "--count", "\(Self.gatewaysPerHost)",
            ]
            for f in brokers.floors { arguments += ["--broker", "\(f.floor)=\(f.broker.port)"] }
            hosts.append(
                try Subprocess.spawn(
                    Self.ownExecutable(), arguments, stdout: scratch.path("campus-\(tag)-host\(k).out"),
                    stderr: scratch.path("campus-\(tag)-host\(k).err")))
        }

        BenchClock.sleep(Double(options.campus.warmup))
        guard hosts.allSatisfy(\.isRunning), locate.isRunning else {
            throw BenchFailure("a campus host or the locator stopped during the warm-up; see BENCH_KEEP_SCRATCH=1")
        }
        let groups: [(String, [Int32], Double)] =
            [
                ("gateways (\(hosts.count) processes)", hosts.map(\.processIdentifier), 200),
                ("locator", [locate.processIdentifier], 100),
            ]
            + brokers.all.map { ("mosquitto \($0.name)", [$0.process.processIdentifier], 100) }
            + [("bench subscribers", [getpid()], 200)]
        let before = groups.map { $0.1.map { ProcessProbe(pid: $0).sample() } }
        let threadsBefore = Self.threadTicks(hosts.map(\.processIdentifier))
        let tallies = [centre] + floorTallies
        let countsBefore = tallies.map { $0.state.withLock { $0 } }
        let started = BenchClock.now()
        BenchClock.sleep(Double(options.campus.seconds))
        let seconds = BenchClock.seconds(since: started)
        let after = groups.map { $0.1.map { ProcessProbe(pid: $0).sample() } }
        let threadsAfter = Self.threadTicks(hosts.map(\.processIdentifier))
        let countsAfter = tallies.map { $0.state.withLock { $0 } }
        let load = Self.uptimeLoad()

        // Stop the gateways (each flushes its queue), then let the bridges deliver the rest.
        for h in hosts { h.terminate() }
        for h in hosts { Subprocess.stop(h, grace: 45) }
        let hostLines = hosts.indices.map {
            (try? String(contentsOfFile: scratch.path("campus-\(tag)-host\($0).out"), encoding: .utf8)) ?? ""
        }
        var lost = Set<String>()
        var published = 0
        let deadline = BenchClock.now() + 15_000_000_000
        repeat {
            BenchClock.sleep(0.5)
            let atFloors = floorTallies.reduce(into: Set<String>()) { $0.formUnion($1.state.withLock { $0.events }) }
            published = atFloors.count
            lost = atFloors.subtracting(centre.state.withLock { $0.events })
        } while !lost.isEmpty && BenchClock.now() < deadline

        var loads: [Load] = []
        for (i, group) in groups.enumerated() {
            let percents = zip(before[i], after[i]).compactMap { a, b in
                a.flatMap { a in b.map { ProcessProbe.cpuPercent(from: a, to: $0) } }
            }
            guard percents.count == group.1.count else { continue }
            loads.append(Load(name: group.0, percent: percents.reduce(0, +), limit: group.2))
        }
        let threads = Self.threadShares(before: threadsBefore, after: threadsAfter, seconds: seconds)
        let c0 = countsBefore[0]
        let c1 = countsAfter[0]
        let floorIn = zip(countsBefore.dropFirst(), countsAfter.dropFirst()).map { Double($1.received - $0.received) }
        let eventsWindow = Array(c1.eventLatencies[c0.eventLatencies.count...])
        let atFloorsWindow = zip(countsBefore.dropFirst(), countsAfter.dropFirst()).flatMap { a, b in
            b.eventLatencies[a.eventLatencies.count...]
        }
        let proximityWindow = Array(c1.proximityLatencies[c0.proximityLatencies.count...])
        let locationsWindow = Array(c1.locationLatencies[c0.locationLatencies.count...])

        var result = BenchResult(
            section: "campus", name: "\(g.rooms) gateways × \(g.beacons) beacons (\(g.floors) floors)")
        result.add("gateways", Double(g.rooms), "gateways")
        result.add("gateways_online", Double(c1.online.count), "online at the centre")
        result.add("beacons", Double(g.beacons), "beacons")
        result.add("gateway_msgs_per_s", floorIn.reduce(0, +) / seconds, "msg/s into floor brokers")
        result.add("central_in_per_s", Double(c1.received - c0.received) / seconds, "msg/s into the centre")
        result.add("central_out_per_s", Double(c1.sent - c0.sent) / seconds, "msg/s out of it")
        result.add("enter_exit_per_s", Double(eventsWindow.count) / seconds, "enter+exit/s at the centre", decimals: 1)
        result.add("enter_latency_p50_ms", CampusTally.quantile(eventsWindow, 0.5) ?? .nan, "ms p50", decimals: 1)
        result.add(
            "enter_latency_p99_ms", CampusTally.quantile(eventsWindow, 0.99) ?? .nan, "ms p99 report → centre",
            decimals: 1)
        result.add(
            "floor_enter_latency_p50_ms", CampusTally.quantile(atFloorsWindow, 0.5) ?? .nan, "ms p50", decimals: 1)
        result.add(
            "floor_enter_latency_p99_ms", CampusTally.quantile(atFloorsWindow, 0.99) ?? .nan,
            "ms p99 report → its floor",
            decimals: 1)
        result.add(
            "proximity_latency_p50_ms", CampusTally.quantile(proximityWindow, 0.5) ?? .nan, "ms p50", decimals: 1)
        result.add(
            "proximity_latency_p99_ms", CampusTally.quantile(proximityWindow, 0.99) ?? .nan,
            "ms p99 proximity report → centre",
            decimals: 1)
        result.add("locations_per_s", Double(locationsWindow.count) / seconds, "locations/s", decimals: 1)
        result.add("location_latency_p50_ms", CampusTally.quantile(locationsWindow, 0.5) ?? .nan, "ms p50", decimals: 0)
        result.add(
            "location_latency_p99_ms", CampusTally.quantile(locationsWindow, 0.99) ?? .nan,
            "ms p99 tick → centre (settle 1 s)",
            decimals: 0)
        result.add("enter_exit_published", Double(published), "enter+exit at the floors")
        result.add("enter_exit_lost", Double(lost.count), "lost over the bridges")
        result.add("broker_dropped", Double(countsAfter.map(\.dropped).reduce(0, +)), "dropped by brokers")
        for l in loads {
            result.add("cpu_" + Self.key(l.name), l.percent, "% \(l.name)", decimals: 1)
        }
        for (name, percent) in threads {
            result.add("cpu_gateways_" + Self.key(name), percent, "% of it in '\(name)' threads", decimals: 1)
        }
        let lags = hostLines.compactMap { Self.value("lag_max_ms", in: $0) }
        if let lag = lags.max() { result.add("host_lag_max_ms", lag, "ms simulator lag (max)") }
        result.add("cpu_total", loads.map(\.percent).reduce(0, +), "% all of them (the machine has 200 %)", decimals: 0)
        result.add("load_average", load, "load avg", decimals: 2)
        // What one real gateway pays (its pipeline and MQTT threads; the simulator thread is the
        // harness's), and which shared part (a floor broker with its bridge, the central broker, the
        // locator) is nearest its limit: each is one thread's work, so it saturates at one core.
        let simulator = threads.first { $0.0 == "beacon2mqtt-ben" }?.1 ?? 0
        if let hostLoad = loads.first {
            result.add(
                "cpu_per_gateway", (hostLoad.percent - simulator) / Double(g.rooms), "% of a core per gateway",
                decimals: 3)
        }
        let shared = loads.filter { $0.name.hasPrefix("mosquitto") || $0.name == "locator" }
        if let busiest = shared.max(by: { $0.percent < $1.percent }) {
            let share = busiest.percent / busiest.limit
            result.add("bottleneck_share", share * 100, "% of its core", decimals: 1)
            result.note =
                "busiest shared part: \(busiest.name) at \(JSONWriter.format(busiest.percent, decimals: 1)) % of a core "
                + "(one core at about \(Int((Double(g.rooms) / max(share, 0.0001)).rounded())) gateways of this mix)"
        }
        // Where messages wait (median delay each stage adds): gateway → its floor's broker, the
        // bridge and the centre, the locator past its settle.
        if let floor = CampusTally.quantile(atFloorsWindow, 0.5),
            let centreP50 = CampusTally.quantile(eventsWindow, 0.5),
            let decided = CampusTally.quantile(locationsWindow, 0.5)
        {
            let stages = [
                ("gateways → floor", floor), ("bridge → centre", centreP50 - floor), ("locator", decided - 1000),
            ]
            let slowest = stages.max { $0.1 < $1.1 }!
            result.note +=
                "; waits (p50): " + stages.map { "\($0.0) \(Int($0.1.rounded())) ms" }.joined(separator: ", ")
                + " — longest: \(slowest.0)"
        }
        if !lost.isEmpty || c1.locations == 0 || c1.online.count < g.rooms {
            let problem =
                "\(lost.count) of \(published) enter/exit lost, \(c1.locations) locations, "
                + "\(c1.online.count) of \(g.rooms) gateways online"
            result.note += "; FAILED: " + problem
            report.add(result)
            throw BenchFailure("campus \(g.rooms): " + problem)
        }
        report.add(result)
    }

    /// This benchmark's own executable, which hosts the gateways (`campus-gateways`).
    static func ownExecutable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func key(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }).split(separator: "_").joined(
            separator: "_")
    }

    /// How many gateways one host process runs. libmosquitto's `mosquitto_loop` waits with select(2)
    /// and refuses a socket numbered FD_SETSIZE (1024) or above ("Invalid function arguments"), and a
    /// gateway holds about five descriptors (its socket, libmosquitto's socket pair, the MQTT
    /// client's stop pipe), so a process fits about 200: 500 gateways are four processes, not 500.
    static let gatewaysPerHost = 125

    /// CPU ticks per thread name, summed over processes (/proc/PID/task/*/stat; proc(5)).
    static func threadTicks(_ pids: [Int32]) -> [String: Int] {
        var out: [String: Int] = [:]
        for pid in pids { out.merge(threadTicks(pid), uniquingKeysWith: +) }
        return out
    }

    static func threadTicks(_ pid: Int32) -> [String: Int] {
        var out: [String: Int] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for tid in tasks {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            let name = String(stat[stat.index(after: open)..<close])
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let u = Int(fields[11]), let s = Int(fields[12]) else { continue }
            out[name, default: 0] += u + s
        }
        return out
    }

    /// Per thread name, % of one core between two `threadTicks` readings (threads that ended are missed).
    static func threadShares(before: [String: Int], after: [String: Int], seconds: Double) -> [(String, Double)] {
        after.map { name, ticks in
            (name, Double(ticks - (before[name] ?? 0)) / ProcessProbe.ticksPerSecond / seconds * 100)
        }
        .filter { $0.1 >= 0.05 }.sorted { $0.1 > $1.1 }
    }

    static func value(_ key: String, in line: String) -> Double? {
        guard let r = line.firstRange(of: key + "=") else { return nil }
        return Double(line[r.upperBound...].prefix { !$0.isWhitespace })
    }

    /// The 1-minute load average (/proc/loadavg), reported beside the figures.
    static func uptimeLoad() -> Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return Double(text.split(separator: " ").first ?? "") ?? .nan
    }
}
