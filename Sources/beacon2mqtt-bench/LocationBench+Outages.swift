import BeaconCore
import MessageContract
import RoomScoring
import Settings
import Vocabulary

/// A receiver offline halfway (`ReceiverOutage`): each receiver in turn, in each run, goes silent at
/// the run's middle, and its Last Will (`offline`) reaches the locator as the broker would send it
/// (`outageKinds`: at once when the gateway's process dies, 1.5 keepalives later when it loses power);
/// the ticks from its silence on are scored for the locator and for the 4 s median of the receivers
/// left. The same ticks with every receiver are scored alongside, so the difference is the outage's.
extension LocationBench {
    /// An engine scored through outages: its name and, per run, its `locator` keys.
    struct OutageEngine {
        var name: String
        var keysByRun: [String]
    }

    /// A method's ticks after outages: the room score, and how many ticks named a wrong room with
    /// at least the default `min_confidence` (nil for a method without confidence).
    struct OutageScore {
        var summary = RoomScoreSummary()
        var confidentlyWrong: Int?

        mutating func merge(_ other: OutageScore) {
            summary.merge(other.summary)
            if let o = other.confidentlyWrong { confidentlyWrong = (confidentlyWrong ?? 0) + o }
        }
    }

    /// How a receiver goes offline, by when its Last Will reaches the locator after it falls silent:
    /// its process died (the socket closes, the broker sends the will at once), or it lost power or
    /// its network (the broker waits one and a half of the gateways' default keepalive).
    static var outageKinds: [(name: String, willAfter: Double)] {
        [("process gone", 0), ("power cut", 1.5 * MQTTSettings().keepalive.seconds)]
    }

    /// Per method ("<engine>, every receiver", "<engine>, <kind>: <gateway> offline", and the
    /// median's), the run's ticks from its outages on; `every` holds each engine's locations with
    /// every receiver, as the run's main table decided them (by method, each by `since`).
    func outages(
        _ run: SiteRecording, index: Int, relayed: [GatewayMessage], every: [String: [Location]],
        site: SiteDescription, engines: [OutageEngine]
    ) throws(BenchFailure) -> [String: OutageScore] {
        // Each receiver's outage, its will `willAfter` after it falls silent.
        let outages = { (willAfter: Double) in
            site.receivers.indices.map {
                ReceiverOutage.halfway(receiver: $0, start: run.start, end: run.end, willAfter: willAfter)
            }
        }
        let from = outages(0)[0].at
        let after = max(run.end, relayed.last?.time ?? run.end)
        let rank = Dictionary(uniqueKeysWithValues: site.receivers.enumerated().map { ($1.gateway, $0) })
        var scores: [String: OutageScore] = [:]
        for (e, engine) in engines.enumerated() {
            let keys = engine.keysByRun[index]
            scores["\(engine.name)\(Self.everyReceiver)"] = score(run, every[engine.name] ?? [], from: from, site: site)
            for (k, kind) in Self.outageKinds.enumerated() {
                for o in outages(kind.willAfter) {
                    let gateway = site.receivers[o.receiver].gateway
                    var messages = relayed.filter { o.keeps(receiver: rank[$0.gateway] ?? -1, at: $0.time) }
                    let will = GatewayMessage(
                        topic: TopicTree(base: "beacons", gateway: gateway).gatewayStatus,
                        payload: Availability.offline.rawValue, time: o.will, gateway: gateway, received: 0)
                    messages.insert(will, at: messages.firstIndex { $0.time >= o.will } ?? messages.endIndex)
                    let decided = Self.bySince(
                        try runLocator(
                            messages, after: after, keys: keys,
                            prefix: "outage-\(index + 1)-\(e + 1)-\(k + 1)-\(o.receiver + 1)"))
                    scores["\(engine.name), \(kind.name): \(gateway) offline", default: OutageScore()]
                        .merge(score(run, decided, from: o.at, site: site))
                }
            }
        }
        let readings = Self.readings(run)
        scores["median 4 s\(Self.everyReceiver)"] = median(run, readings, from: from, site: site)
        for o in outages(0) {
            scores["median 4 s, \(site.receivers[o.receiver].gateway) offline"] = median(
                run, o.applied(to: readings), from: o.at, site: site)
        }
        return scores
    }

    static let everyReceiver = ", every receiver"

    /// The ticks from `from` to the run's end: the newest of `sorted` (by `since`) decided at or
    /// before each.
    private func score(
        _ run: SiteRecording, _ sorted: [Location], from: Double, site: SiteDescription
    ) -> OutageScore {
        let least = LocatorSettings().belief.minConfidence
        var next = 0
        var current: Location?
        var confidentlyWrong = 0
        var out = OutageScore()
        out.summary = score(run, from: from, site: site) { tick, truth in
            while next < sorted.count, sorted[next].since <= tick {
                current = sorted[next]
                next += 1
            }
            let answer = current?.answer ?? .none
            if let truth, case .room(let room) = answer, room != truth, (current?.confidence ?? 0) >= least {
                confidentlyWrong += 1
            }
            return answer
        }
        out.confidentlyWrong = confidentlyWrong
        return out
    }

    /// The ticks from `from` to the run's end, answered by the strongest receiver's 4 s median.
    private func median(
        _ run: SiteRecording, _ readings: [[StrongestReceiver.Reading]], from: Double, site: SiteDescription
    ) -> OutageScore {
        var rule = StrongestReceiver(rule: .median, readings: readings)
        let summary = score(run, from: from, site: site) { tick, _ in
            rule.owner(at: tick).map { .room(site.receivers[$0].room) } ?? .none
        }
        return OutageScore(summary: summary)
    }

    /// Every whole second of the run asked for its answer in order (with the true room from
    /// `from` on, nil before); those from `from` on scored.
    private func score(
        _ run: SiteRecording, from: Double, site: SiteDescription, answer: (Double, String?) -> RoomAnswer
    ) -> RoomScoreSummary {
        var s = RoomScore()
        let truth = run.truth
        var tick = run.start.rounded(.up)
        while tick <= run.end {
            let truthRoom = tick >= from ? site.room(at: truth.nearest(to: tick)) : nil
            let a = answer(tick, truthRoom?.room.name)
            if let (room, distance) = truthRoom {
                s.add(.init(time: tick, truth: room.name, boundaryDistance: distance, answer: a))
            }
            tick += 1
        }
        return s.summary
    }
}

extension LocationBench {
    /// The outages' table over all runs: per engine its ticks with every receiver, then per kind of
    /// outage with one offline (each in turn, merged) and per receiver; the median's likewise, its
    /// receiver's readings simply ending.
    func outageResults(
        _ perRun: [[String: OutageScore]], engines: [String], site: SiteDescription,
        into report: inout BenchReport
    ) -> [String] {
        var merged: [String: OutageScore] = [:]
        for scores in perRun { for (k, v) in scores { merged[k, default: OutageScore()].merge(v) } }
        let kinds = Self.outageKinds.map { "\($0.name) (its Last Will after \(fmt($0.willAfter, 0)) s)" }
        var table = [
            "",
            "a receiver offline halfway: each receiver in turn falls silent at the middle of each run, its Last Will "
                + "(offline) reaching the locator as the broker sends it: " + kinds.joined(separator: ", ")
                + "; the ticks from its silence on, against the same ticks with every receiver",
            "| method | receivers | rooms right | ≥ 1 m from a wall | wrong room (≥ min_confidence) | none/unknown | ticks |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for (engine, prefixes) in engines.map({ e in (e, Self.outageKinds.map { "\($0.name): " }) })
            + [("median 4 s", [""])]
        {
            var rows = [("every receiver", merged["\(engine)\(Self.everyReceiver)"] ?? OutageScore())]
            for prefix in prefixes {
                let gone = site.receivers.map { "\(prefix)\($0.gateway) offline" }
                var any = OutageScore()
                for g in gone { any.merge(merged["\(engine), \(g)"] ?? OutageScore()) }
                rows.append(("\(prefix)one offline", any))
                rows += gone.map { ($0, merged["\(engine), \($0)"] ?? OutageScore()) }
            }
            for (receivers, o) in rows {
                let s = o.summary
                let confident = o.confidentlyWrong.map { 100 * Double($0) / Double(max(s.ticks, 1)) }
                var r = BenchResult(section: "location", name: "\(site.name) outage: \(engine), \(receivers)")
                r.add("rooms_right_pct", s.rightPercent, "% right", decimals: 1)
                r.add("clear_right_pct", s.clearRightPercent, "% right ≥ 1 m from a wall", decimals: 1)
                r.add("wrong_pct", s.wrongPercent, "% wrong room named", decimals: 1)
                if let confident {
                    r.add("confidently_wrong_pct", confident, "% wrong with ≥ min_confidence", decimals: 1)
                }
                r.add("unanswered_pct", s.unansweredPercent, "% none/unknown", decimals: 1)
                r.add("ticks", Double(s.ticks), "ticks")
                report.add(r)
                table.append(
                    "| \(engine) | \(receivers) | \(fmt(s.rightPercent, 1)) % | \(fmt(s.clearRightPercent, 1)) % | "
                        + "\(fmt(s.wrongPercent, 1)) % (\(confident.map { "\(fmt($0, 1)) %" } ?? "—")) | "
                        + "\(fmt(s.unansweredPercent, 1)) % | \(s.ticks) |")
            }
        }
        return table
    }
}
