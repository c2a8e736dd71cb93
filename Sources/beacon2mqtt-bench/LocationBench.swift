import BeaconConfig
import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import RoomScoring
import Vocabulary

/// Section `location`: how often the locator names the right room on real radio.
///
/// For each run of a recorded site (`SiteDescription`, `--site`): a capture per receiver
/// (`ReceiverCaptures`); one real `beacon2mqtt run --replay` gateway per receiver (its gateway id,
/// floor and room) into a private mosquitto, a subscriber recording every proximity and event
/// message; then the real `beacon2mqtt locate --clock messages` on a second private mosquitto, fed
/// those messages in the order of their timestamps: with its defaults, or once per `--locator-config`
/// on the same messages, so engines compare in one run (`--gateway-config` sets the gateways'); each
/// locator once more with every second receiver as an ESPresense node (`ESPresenseRelay`). Ordered so, every gateway's
/// readings for a tick are in before any reading a second later decides it, whatever the speed
/// and start of each gateway: the result is the same on every run of the bench. A sentinel beacon's
/// readings after the run's end make the locator decide every tick of it.
///
/// Every whole second of a run is scored (`RoomScore`) against the truth (the row nearest that
/// second): the locator's retained location then, and three baselines on the captures' readings
/// (`StrongestReceiver`). Also the proximity messages the gateways published per gateway-beacon
/// pair and second, overall and at rest (`MessageRate`). Each run's relayed messages and per-tick
/// truth and answers go to `location-<site>-<run>.jsonl` (`--location-log`). Then each receiver in
/// turn goes offline halfway through each run (`outages`, `ReceiverOutage`).
struct LocationBench {
    var options: BenchOptions
    var scratch: ScratchDirectory

    static let baselines = ["latest", "median 4 s", "median + 3 dB / 2 s"]
    /// The locators compared: their `locator` keys as a YAML flow mapping ("" for the defaults).
    var locators: [String] { options.location.locatorConfigs.isEmpty ? [""] : options.location.locatorConfigs }
    /// A locator run: its name, its `locator` keys, whether half of the receivers are ESPresense
    /// nodes, and the name its positions are scored by when it places beacons on the site plan.
    struct Variant {
        var name: String
        var keys: String
        var mixed: Bool
        var positionMethod: String?
        /// Per run (by index), its own `locator` keys in place of `keys`.
        var keysByRun: [String]? = nil
    }
    /// Each locator twice: on the gateways' messages, then with half of the receivers as ESPresense
    /// nodes (`ESPresenseRelay`) read through `locator.foreign_sources`; the first locator once
    /// more with the fingerprints of the calibration runs' teach-in (`teachIn`, its `locator`
    /// keys), and once with each run's fingerprints fitted on the teach-in of every other run
    /// (`heldOut`, per run), so every run scores fingerprints that never saw it; with a site plan,
    /// once more with the plan and once with the surveyed plan (`SitePlacing`).
    func variants(placing: SitePlacing?, teachIn: String?, heldOut: [String]? = nil) -> [Variant] {
        let name = { (keys: String) in keys.isEmpty ? "locate" : "locate \(keys)" }
        let first = { (more: String) in Self.merged(locators[0], more) }
        var out = locators.flatMap {
            [
                Variant(name: name($0), keys: $0, mixed: false),
                Variant(name: name($0) + ESPresenseRelay.suffix, keys: $0, mixed: true),
            ]
        }
        // A first locator with fingerprints of its own is not taught again.
        if let teachIn, !locators[0].contains("fingerprints:") {
            out.append(Variant(name: name(locators[0]) + Self.teachInSuffix, keys: first(teachIn), mixed: false))
            if let heldOut {
                out.append(
                    Variant(
                        name: name(locators[0]) + Self.heldOutSuffix, keys: first(teachIn), mixed: false,
                        keysByRun: heldOut.map(first)))
            }
        }
        guard let placing else { return out }
        for (method, plan) in zip(Self.positionMethods, [placing.locatorKeys, placing.surveyedKeys]) {
            let keys = first(plan)
            out.append(
                Variant(
                    name: name(locators[0]) + method.dropFirst("locate".count), keys: keys, mixed: false,
                    positionMethod: method))
        }
        return out
    }
    /// `keys` (a flow mapping of `locator` keys; "" or `{}` for none) with the keys of the flow
    /// mapping `more` added.
    static func merged(_ keys: String, _ more: String) -> String {
        let inner = keys.hasPrefix("{") && keys.hasSuffix("}") ? keys.dropFirst().dropLast() : Substring(keys)
        guard inner.contains(where: { !$0.isWhitespace }) else { return more }
        return "{\(inner), \(more.dropFirst())"
    }

    /// The locator with the calibration runs' room fingerprints.
    static let teachInSuffix = " + teach-in"
    /// The locator with each run's fingerprints fitted on the other runs' teach-in.
    static let heldOutSuffix = " + teach-in, run held out"
    /// The positioning locators' methods: on the plan, and on the plan with the calibration runs as its survey.
    static let positionMethods = ["locate + site plan", "locate + site plan + survey"]
    static let sentinelMinor: UInt16 = 2

    /// One run's scores per method, its message rate, and the locator's location count.
    struct RunOutcome {
        var name: String
        var use: String
        var scores: [String: RoomScoreSummary]
        /// Per position method (the locator's, then `PositionBaselines.names`), its errors.
        var positions: [String: PositionErrors]
        /// Of the locator's positions, those `locator.position_deadband` (its default) would publish
        /// again: a move of more than it from the one last published.
        var republished: Int
        var seconds: Double
        var rate: MessageRate
        var relayed: Int
        /// Per locator (by method), its locations by `since`, then as published.
        var locations: [String: [Location]]
    }

    func run(into report: inout BenchReport) throws(BenchFailure) {
        guard FileManager.default.isExecutableFile(atPath: options.agent) else {
            throw BenchFailure("no agent at \(options.agent) (swift build -c release --product beacon2mqtt)")
        }
        let started = BenchClock.now()
        let site = try SiteDescription(path: options.location.site)
        var tally = SiteRecording.Tally()
        let runs = try SiteRecording.load(site, &tally)
        if tally.outOfRange > 0 {
            Console.line("  location: \(tally.outOfRange) RSSI cells outside −127…20 dBm read as not heard")
        }
        if tally.unpositioned > 0 {
            Console.line(
                "  location: \(tally.unpositioned) rows without a position, interpolated between their neighbours")
        }
        let placing = try SitePlacing(site: site, runs: runs, scratch: scratch)
        // Every run's gateways first: the calibration runs' messages are the teach-in.
        var relayed: [[GatewayMessage]] = []
        for (i, run) in runs.enumerated() {
            Console.line("  location: \(site.name) \(run.name) (\(Int(run.end - run.start)) s)")
            relayed.append(try record(run, index: i, site: site))
        }
        let teachIn = Self.teachIn(
            zip(runs, relayed).filter { $0.0.use == "calibration" }.map { ($0.1, Self.marks($0.0, site: site)) })
        // Per run, the teach-in of every other run (on the flat, a test run's is the calibration
        // runs'): each run scored on fingerprints that never saw it, from walks that between them
        // visit every room.
        let heldOut = runs.indices.compactMap { i in
            Self.teachIn(
                runs.indices.filter { $0 != i }.map {
                    (relayed[$0], Self.marks(runs[$0], site: site))
                })
        }
        let variants = variants(
            placing: placing, teachIn: teachIn, heldOut: heldOut.count == runs.count ? heldOut : nil)
        let methods = variants.map(\.name) + Self.baselines
        var outcomes: [RunOutcome] = []
        for (i, run) in runs.enumerated() {
            outcomes.append(
                try replay(run, index: i, relayed: relayed[i], site: site, variants: variants, placing: placing))
        }
        // Each receiver offline halfway, for the defaults and the held-out teach-in.
        var engines = [OutageEngine(name: variants[0].name, keysByRun: runs.map { _ in locators[0] })]
        if let held = variants.first(where: { $0.keysByRun != nil }), let keys = held.keysByRun {
            engines.append(OutageEngine(name: held.name, keysByRun: keys))
        }
        var outageScores: [[String: OutageScore]] = []
        for (i, run) in runs.enumerated() {
            outageScores.append(
                try outages(
                    run, index: i, relayed: relayed[i], every: outcomes[i].locations, site: site, engines: engines))
        }
        let wall = BenchClock.seconds(since: started)
        var scopes: [(String, [RunOutcome])] = outcomes.map { ($0.name, [$0]) }
        scopes.append(("all runs", outcomes))
        let echo = report.echo
        report.echo = false
        var table: [String] = [
            "| run | method | rooms right | ≥ 1 m from a wall | changes (true) | delay mean / p90 | missed | none/unknown | proximity msg/pair-s (at rest) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for (scope, members) in scopes {
            var rate = MessageRate(pairs: 0)
            for m in members { rate.merge(m.rate) }
            var nativeRight = 0.0
            for (index, method) in methods.enumerated() {
                var s = RoomScoreSummary()
                for m in members { s.merge(m.scores[method]!) }
                var r = BenchResult(section: "location", name: "\(site.name) \(scope): \(method)")
                r.add("rooms_right_pct", s.rightPercent, "% right", decimals: 1)
                if index < variants.count {
                    // Mixed receivers against the same locator on the gateways alone (issue: within 2 points).
                    if variants[index].mixed {
                        r.add("vs_native_pts", s.rightPercent - nativeRight, "points vs all gateways", decimals: 1)
                    } else {
                        nativeRight = s.rightPercent
                    }
                }
                r.add("clear_right_pct", s.clearRightPercent, "% right ≥ 1 m from a wall", decimals: 1)
                r.add("changes", Double(s.changesMade), "changes")
                r.add("true_changes", Double(s.trueChanges), "true changes")
                r.add("delay_mean_s", s.meanDelay, "s mean delay", decimals: 1)
                r.add("delay_p90_s", s.p90Delay, "s p90 delay", decimals: 0)
                r.add("missed", Double(s.missed), "missed")
                r.add("unanswered", Double(s.unanswered), "ticks none/unknown")
                r.add("ticks", Double(s.ticks), "ticks")
                var messages = "—"
                if index == 0 {
                    r.add("proximity_per_pair_s", rate.perPairSecond, "proximity msg/pair-s", decimals: 3)
                    r.add("proximity_at_rest_per_pair_s", rate.perPairSecondAtRest, "at rest (budget 0.2)", decimals: 3)
                    messages = "\(fmt(rate.perPairSecond, 3)) (\(fmt(rate.perPairSecondAtRest, 3)))"
                    if scope == "all runs" { r.add("wall_s", wall, "s section wall time", decimals: 1) }
                }
                report.add(r)
                table.append(
                    "| \(scope) | \(method) | \(fmt(s.rightPercent, 1)) % | \(fmt(s.clearRightPercent, 1)) % | "
                        + "\(s.changesMade) (\(s.trueChanges)) | \(fmt(s.meanDelay, 1)) / \(fmt(s.p90Delay, 0)) s | "
                        + "\(s.missed) | \(s.unanswered) | \(messages) |")
            }
        }
        let positionTable = placing.map { positionResults(outcomes, placing: $0, site: site, into: &report) } ?? []
        let outageTable = outageResults(outageScores, engines: engines.map(\.name), site: site, into: &report)
        report.echo = echo
        Console.line("location on real radio: \(site.name), \(runs.count) runs, section wall time \(fmt(wall, 1)) s")
        if let g = options.location.gatewayConfig { Console.line("gateways' configuration adds: \(g)") }
        for line in table { Console.line(line) }
        for line in positionTable { Console.line(line) }
        for line in outageTable { Console.line(line) }
    }

    /// The position errors per run, over the runs not used for fitting, and over all runs.
    private func positionResults(
        _ outcomes: [RunOutcome], placing: SitePlacing, site: SiteDescription, into report: inout BenchReport
    ) -> [String] {
        var scopes: [(String, [RunOutcome])] = outcomes.map { ($0.name, [$0]) }
        scopes.append(("test runs", outcomes.filter { $0.use != "calibration" }))
        scopes.append(("all runs", outcomes))
        var table: [String] = [
            "", placing.summary,
            "| run | position method | median error | p90 error | vs centroid median | ticks |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for (scope, members) in scopes where !members.isEmpty {
            let hours = members.reduce(0) { $0 + $1.seconds } / 3600
            let republished = Double(members.reduce(0) { $0 + $1.republished })
            var rate = BenchResult(section: "location", name: "\(site.name) \(scope): position republished")
            rate.add(
                "position_republished_per_h", republished / max(hours, 1e-9), "locations/h at the default deadband")
            report.add(rate)
            var merged: [String: PositionErrors] = [:]
            for m in members { for (k, v) in m.positions { merged[k, default: PositionErrors()].merge(v) } }
            let centroid = merged[PositionBaselines.names[1]]?.median ?? 0
            for method in Self.positionMethods + PositionBaselines.names {
                let e = merged[method] ?? PositionErrors()
                var r = BenchResult(section: "location", name: "\(site.name) \(scope): position \(method)")
                r.add("position_median_m", e.median, "m median error", decimals: 2)
                r.add("position_p90_m", e.p90, "m p90 error", decimals: 2)
                let below = centroid > 0 ? (1 - e.median / centroid) * 100 : 0
                r.add("below_centroid_pct", below, "% below the weighted centroid's median", decimals: 0)
                r.add("position_ticks", Double(e.count), "ticks")
                report.add(r)
                table.append(
                    "| \(scope) | \(method) | \(fmt(e.median, 2)) m | \(fmt(e.p90, 2)) m | \(fmt(below, 0)) % | \(e.count) |"
                )
            }
            table.append(
                "| \(scope) | locations a default position_deadband publishes for moves | \(Int(republished)) "
                    + "(\(fmt(republished / max(hours, 1e-9), 0)) an hour) | | | |")
        }
        return table
    }

    func fmt(_ v: Double, _ decimals: Int) -> String { BenchReport.formatted(v, decimals: decimals) }

    // MARK: - One run

    /// One real gateway per receiver on the run's captures: what they publish, in time order.
    private func record(
        _ run: SiteRecording, index: Int, site: SiteDescription
    ) throws(BenchFailure)
        -> [GatewayMessage]
    {
        let prefix = "location-\(index + 1)"
        let captures = try ReceiverCaptures.write(run, site: site, scratch: scratch, prefix: prefix)
        return Self.timeOrdered(try runGateways(captures, site: site, prefix: prefix), site: site)
    }

    /// The run as a teach-in's marks: a mark at each tick whose true room differs from the last one's.
    static func marks(_ run: SiteRecording, site: SiteDescription) -> [SiteSurvey.Mark] {
        var marks: [SiteSurvey.Mark] = []
        let truth = run.truth
        var tick = run.start.rounded(.up)
        while tick <= run.end {
            if let room = site.room(at: truth.nearest(to: tick))?.room, marks.last?.room != room.name {
                marks.append(.init(time: ReceiverCaptures.timestamp(tick), room: room.name))
            }
            tick += 1
        }
        return marks
    }

    /// The `locator` keys (a flow mapping) with the room fingerprints `beacon2mqtt survey` fits on
    /// `walks`; nil: no walk, or no second to fit.
    static func teachIn(_ walks: [(messages: [GatewayMessage], marks: [SiteSurvey.Mark])]) -> String? {
        let topics = walks.flatMap { $0.messages.map(\.topic) }
        guard let beacon = SiteSurvey.busiestBeacon(topics, baseTopic: "beacons") else { return nil }
        var survey = SiteSurvey(baseTopic: "beacons", beacon: beacon)
        for walk in walks { survey.add(messages: walk.messages.map { ($0.topic, $0.payload) }, marks: walk.marks) }
        guard let fingerprints = survey.fingerprints(LocatorSettings()) else { return nil }
        return "{fingerprints: [\(YAMLText.fingerprints(fingerprints).joined(separator: ", "))]}"
    }

    private func replay(
        _ run: SiteRecording, index: Int, relayed: [GatewayMessage], site: SiteDescription, variants: [Variant],
        placing: SitePlacing?
    ) throws(BenchFailure) -> RunOutcome {
        let methods = variants.map(\.name) + Self.baselines
        let prefix = "location-\(index + 1)"
        var decided: [[Location]] = []
        let mixed = ESPresenseRelay(site: site)
        for (n, v) in variants.enumerated() {
            let locations = try runLocator(
                v.mixed ? mixed.messages(relayed) : relayed, after: max(run.end, relayed.last?.time ?? run.end),
                keys: v.mixed ? mixed.locatorKeys(v.keys) : v.keysByRun?[index] ?? v.keys, prefix: "\(prefix)-\(n + 1)")
            decided.append(Self.bySince(locations))
        }

        // Each locator's answer at a tick: its newest location decided at or before it.
        var next = decided.map { _ in 0 }
        var answer = decided.map { _ in RoomAnswer.none }
        // Each positioning locator's positions in the order of their ticks, and the baselines'.
        let placed = variants.indices.compactMap { l in
            variants[l].positionMethod.map { ($0, decided[l].compactMap(\.position).sorted { $0.at < $1.at }) }
        }
        var nextPlaced = placed.map { _ in 0 }
        var position: [(x: Double, y: Double)?] = placed.map { _ in nil }
        let positionBaselines = placing?.baselines(Self.readings(run))
        var positionErrors: [String: PositionErrors] = [:]
        var baselines = [StrongestReceiver.Rule.latest, .median, .medianHysteresis].map {
            StrongestReceiver(rule: $0, readings: Self.readings(run))
        }
        var scores = methods.map { _ in RoomScore() }
        let truth = run.truth
        let heard = site.receivers.indices.filter { k in run.rows.contains { $0.rssi[k] != nil } }.count
        var rate = MessageRate(pairs: heard)
        var log = LocationRunLog()
        for (n, m) in relayed.enumerated() { log.message(n, m) }
        var tick = run.start.rounded(.up)
        while tick <= run.end {
            for l in decided.indices {
                while next[l] < decided[l].count, decided[l][next[l]].since <= tick {
                    answer[l] = decided[l][next[l]].answer
                    next[l] += 1
                }
            }
            let here = truth.nearest(to: tick)
            let atRest = truth.isAtRest(at: tick)
            for (l, (method, positions)) in placed.enumerated() {
                while nextPlaced[l] < positions.count, positions[nextPlaced[l]].at <= tick {
                    position[l] = (positions[nextPlaced[l]].x, positions[nextPlaced[l]].y)
                    nextPlaced[l] += 1
                }
                if let p = position[l] {
                    positionErrors[method, default: PositionErrors()].add(hypot(p.x - here.x, p.y - here.y))
                }
            }
            let baselinePositions = zip(PositionBaselines.names, positionBaselines?.positions(at: tick) ?? [])
            for (name, p) in baselinePositions {
                positionErrors[name, default: PositionErrors()].add(hypot(p.x - here.x, p.y - here.y))
            }
            rate.addSecond(endingAt: Int64(tick), atRest: atRest)
            if let (room, distance) = site.room(at: here) {
                var answers = answer
                for b in baselines.indices {
                    answers.append(baselines[b].owner(at: tick).map { .room(site.receivers[$0].room) } ?? .none)
                }
                for (m, a) in answers.enumerated() {
                    scores[m].add(.init(time: tick, truth: room.name, boundaryDistance: distance, answer: a))
                }
                log.tick(
                    tick, here, room: room.name, boundary: distance, atRest: atRest, answers: zip(methods, answers),
                    positions: zip(placed.map(\.0), position).compactMap { m, p in p.map { (m, $0) } }
                        + baselinePositions.map { ($0, (x: $1.x, y: $1.y)) })
            } else {
                for b in baselines.indices { _ = baselines[b].owner(at: tick) }
            }
            tick += 1
        }
        for m in relayed where m.topic.hasSuffix("/proximity") { rate.addMessage(at: m.time) }
        let slug = run.name.replacingOccurrences(of: " ", with: "-")
        let directory = options.location.log ?? options.resultsDirectory
        try log.write(to: "\(directory)/location-\(site.name)-\(slug).jsonl")
        // The run as a teach-in (`beacon2mqtt survey`): the messages as mosquitto_sub -v prints them,
        // and its marks.
        try Self.write(
            relayed.map { "\($0.topic) \($0.payload)" }, to: "\(directory)/survey-\(site.name)-\(slug).messages")
        try Self.write(
            Self.marks(run, site: site).map { "\($0.time.rfc3339) \($0.room)" },
            to: "\(directory)/survey-\(site.name)-\(slug).marks")
        return RunOutcome(
            name: run.name, use: run.use,
            scores: Dictionary(uniqueKeysWithValues: zip(methods, scores.map(\.summary))), positions: positionErrors,
            republished: Self.republished(placed.first?.1 ?? []), seconds: run.end - run.start, rate: rate,
            relayed: relayed.count, locations: Dictionary(zip(variants.map(\.name), decided)) { _, last in last })
    }

    static func write(_ lines: [String], to path: String) throws(BenchFailure) {
        do {
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw BenchFailure("cannot write \(path): \(error)")
        }
    }

    /// How many of `positions` (every tick's, in order) the default `position_deadband` publishes.
    static func republished(_ positions: [(x: Double, y: Double, at: Double)]) -> Int {
        let deadband = LocatorSettings().positions.deadband
        var last: (x: Double, y: Double)?
        var count = 0
        for p in positions where last.map({ hypot(p.x - $0.x, p.y - $0.y) > deadband }) ?? true {
            last = (p.x, p.y)
            count += 1
        }
        return count
    }

    /// Per receiver, its readings (rounded to whole dBm, as in the captures).
    static func readings(_ run: SiteRecording) -> [[StrongestReceiver.Reading]] {
        guard let width = run.rows.first?.rssi.count else { return [] }
        return (0..<width).map { k in
            run.rows.compactMap { row in row.rssi[k].map { .init(time: row.time, rssi: $0.rounded()) } }
        }
    }

    /// A gateway's message as recorded: topic, payload, its `timestamp` (s), and its place in the
    /// order the subscriber received all gateways' messages.
    struct GatewayMessage {
        var topic: String
        var payload: String
        var time: Double
        var gateway: String
        var received: Int
    }

    /// Runs one gateway per capture to its end; returns their proximity and event messages.
    private func runGateways(
        _ captures: [String], site: SiteDescription, prefix: String
    ) throws(BenchFailure)
        -> [GatewayMessage]
    {
        let broker = try PrivateBroker(scratch: scratch)
        defer { broker.stop() }
        let tally = try MQTTTally(port: broker.port, topic: "beacons/#", keeping: ["/proximity", "/event"])
        defer { tally.stop() }
        var gateways: [Process] = []
        defer { for g in gateways { Subprocess.stop(g) } }
        for (receiver, capture) in zip(site.receivers, captures) {
            let config = try scratch.write(
                """
                gateway:
                  id: \(YAMLText.quoted(receiver.gateway))
                  floor: \(YAMLText.quoted(receiver.floor))
                  room: \(YAMLText.quoted(receiver.room))
                mqtt:
                  host: 127.0.0.1
                  port: \(broker.port)
                  base_topic: beacons
                  client_id: \(YAMLText.quoted("bench-\(receiver.gateway)"))
                \(options.location.gatewayConfig ?? "")

                """, to: "\(prefix)-\(receiver.gateway).yaml")
            gateways.append(
                try Subprocess.spawn(
                    options.agent, ["run", "--config", config, "--replay", capture, "--speed", options.location.speed],
                    stderr: scratch.path("\(prefix)-\(receiver.gateway).err")))
        }
        let deadline = BenchClock.now() + 600_000_000_000
        while gateways.contains(where: \.isRunning), BenchClock.now() < deadline { BenchClock.sleep(0.05) }
        for (g, receiver) in zip(gateways, site.receivers) where g.isRunning || g.terminationStatus != 0 {
            throw BenchFailure(
                "gateway \(receiver.gateway) " + (g.isRunning ? "did not finish" : "exited \(g.terminationStatus)")
                    + "; see BENCH_KEEP_SCRATCH=1 \(prefix)-\(receiver.gateway).err")
        }
        let kept = tally.wait(idle: 1) { _ in false }.kept
        var messages: [GatewayMessage] = []
        for (n, m) in kept.enumerated() {
            let levels = m.topic.split(separator: "/")
            guard levels.count >= 3, let object = try? JSONObject(m.payload), let text = object.string("timestamp"),
                let time = RetainedAttributes.timestamp(rfc3339: text)
            else { continue }
            messages.append(
                GatewayMessage(
                    topic: m.topic, payload: m.payload, time: Double(time.microseconds) / 1e6,
                    gateway: String(levels[levels.count - 2]), received: n))
        }
        guard messages.contains(where: { $0.topic.hasSuffix("/proximity") }) else {
            throw BenchFailure("the gateways published no proximity message")
        }
        return messages
    }

    /// The messages by timestamp; at one timestamp by gateway in the site's order, then as received
    /// (each gateway's own messages arrive in the order it published them).
    static func timeOrdered(_ messages: [GatewayMessage], site: SiteDescription) -> [GatewayMessage] {
        let rank = Dictionary(uniqueKeysWithValues: site.receivers.enumerated().map { ($1.gateway, $0) })
        return messages.sorted {
            ($0.time, rank[$0.gateway] ?? .max, $0.received) < ($1.time, rank[$1.gateway] ?? .max, $1.received)
        }
    }

    struct Location {
        var since: Double
        var answer: RoomAnswer
        /// The named room's probability (`confidence`), when given.
        var confidence: Double?
        /// The position on the site plan and the tick that estimated it, when published.
        var position: (x: Double, y: Double, at: Double)?
    }

    /// `locations` by `since`, then as published: a confidence band's location repeats its room's
    /// `since`, and the later one holds.
    static func bySince(_ locations: [Location]) -> [Location] {
        locations.enumerated().sorted { ($0.1.since, $0.0) < ($1.1.since, $1.0) }.map(\.1)
    }

    /// Feeds `messages` to a fresh `locate --clock messages` in order, then two sentinel readings
    /// after `end`; returns the tag's locations once the sentinel is placed.
    func runLocator(
        _ messages: [GatewayMessage], after end: Double, keys: String, prefix: String
    )
        throws(BenchFailure)
        -> [Location]
    {
        let broker = try PrivateBroker(scratch: scratch)
        defer { broker.stop() }
        let tally = try MQTTTally(
            port: broker.port, topic: "beacons/+/+/+/location", also: ["beacons/locators/+/status"],
            keeping: ["/location"])
        defer { tally.stop() }
        let config = try scratch.write(
            """
            gateway:
              id: bench-locator
            mqtt:
              host: 127.0.0.1
              port: \(broker.port)
              base_topic: beacons
              client_id: bench-locator
            \(keys.isEmpty ? "" : "locator: \(keys)")

            """, to: "\(prefix)-locate.yaml")
        let locate = try Subprocess.spawn(
            options.agent, ["locate", "--config", config, "--clock", "messages"],
            stderr: scratch.path("\(prefix)-locate.err"))
        defer { Subprocess.stop(locate) }
        guard tally.wait(idle: 10, until: { $0.messages >= 1 }).messages >= 1 else {
            throw BenchFailure("locate did not come online; see BENCH_KEEP_SCRATCH=1 \(prefix)-locate.err")
        }
        BenchClock.sleep(0.3)  // its subscriptions, after the online status
        let publisher = try MQTTPublisher(port: broker.port, clientID: "bench-relay")
        defer { publisher.stop() }
        for m in messages { publisher.publish(m.topic, Array(m.payload.utf8), qos: 1) }
        let sentinel =
            "\(ReceiverCaptures.uuid.uuidString.lowercased())/\(ReceiverCaptures.major)/\(Self.sentinelMinor)"
        let first = (end + 2).rounded(.up)
        for t in [first, first + 3] {
            let stamp = ReceiverCaptures.timestamp(t).rfc3339
            publisher.publish(
                "beacons/\(sentinel)/bench-sentinel/proximity",
                Array(
                    """
                    {"uuid":"\(ReceiverCaptures.uuid.uuidString.lowercased())","major":\(ReceiverCaptures.major),\
                    "minor":\(Self.sentinelMinor),"name":null,"gateway":"bench-sentinel","floor":null,"room":null,\
                    "address":"c0:ff:ee:00:00:02","rssi":-60,"rssi_filtered":-60,"measured_power":-59,"accuracy":1.12,\
                    "proximity":"near","timestamp":"\(stamp)"}
                    """.utf8), qos: 1)
        }
        let done = tally.wait(idle: 30) { c in c.kept.contains { $0.topic == "beacons/\(sentinel)/location" } }
        guard done.kept.contains(where: { $0.topic == "beacons/\(sentinel)/location" }) else {
            throw BenchFailure("locate placed no sentinel after the run; see BENCH_KEEP_SCRATCH=1 \(prefix)-locate.err")
        }
        let tag = "beacons/\(ReceiverCaptures.beaconTopic)/location"
        return done.kept.filter { $0.topic == tag }.compactMap { m in
            guard let object = try? JSONObject(m.payload), let text = object.string("since"),
                let since = RetainedAttributes.timestamp(rfc3339: text)
            else { return nil }
            let answer: RoomAnswer =
                object.string("state") == "not_home"
                ? .none : object.string("room").map { .room($0) } ?? .unknown
            var position: (x: Double, y: Double, at: Double)?
            if let x = object.number("x"), let y = object.number("y"),
                let at = object.string("position_at").flatMap(RetainedAttributes.timestamp(rfc3339:))
            {
                position = (x, y, Double(at.microseconds) / 1e6)
            }
            return Location(
                since: Double(since.microseconds) / 1e6, answer: answer, confidence: object.number("confidence"),
                position: position)
        }
    }
}
