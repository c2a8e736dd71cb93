import Foundation
import Testing

@testable import IntegrationSupport

/// The wall clock stepped while `run --simulate` runs (the test-only BEACON2MQTT_TEST_WALL_STEPS
/// steps the clock the agent reads, not the host's): an hour back, then forward twice.
extension ChaosTests {
    /// Seconds after the start and the step: −1 h at 7 s, +1 h at 11 s (back to true), +1 h at 13 s.
    static let wallSteps: [(at: Double, by: Double)] = [(7, -3600), (11, 3600), (13, 3600)]

    /// The schedule as segments: from `from` seconds after the agent's start, its wall clock is off by `offset`.
    static var wallSegments: [(from: Double, offset: Double)] {
        wallSteps.reduce(into: [(from: 0, offset: 0)]) { $0.append(($1.at, $0.last!.offset + $1.by)) }
    }

    /// The segment (at `cursor` or later: the agent stamps events in order) whose offset an event that
    /// arrived `t` seconds after the test's start may carry. The agent's steps count from its own first
    /// read of the clock, up to `lag` seconds after the test's start, and the event was stamped before
    /// it arrived: so the segment must overlap [t − lag, t]. Nil: the stamp is on no clock the agent had.
    static func wallSegment(offset: Double, arrivedAt t: Double, from cursor: Int, lag: Double = 3) -> Int? {
        let segments = wallSegments
        return segments.indices.dropFirst(cursor).first { i in
            let end = i + 1 < segments.count ? segments[i + 1].from : .infinity
            return segments[i].offset == offset && segments[i].from <= t && end > t - lag
        }
    }

    /// `run --simulate` for `seconds` with the agent's wall clock stepped (BEACON2MQTT_TEST_WALL_STEPS), then SIGTERM.
    static func simulate(_ workspace: Workspace, beacons: Int, seconds: Double, wallSteps: String) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["BEACON2MQTT_TEST_WALL_STEPS"] = wallSteps
        let agent = try ChildProcess(
            PackagePaths.binary,
            ["run", "--config", workspace.config, "--simulate", "--beacons", "\(beacons)", "--seed", "\(seed)"],
            output: workspace.log, environment: environment)
        Thread.sleep(forTimeInterval: seconds)
        agent.signal(SIGTERM)
        #expect(agent.wait(timeout: 20) == 0, "\(workspace.logText.suffix(2000))")
    }

    static func field(_ payload: String, _ name: String) -> Any? {
        (try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])?[name]
    }

    static func seconds(rfc3339 text: String?) -> Double? {
        guard let text else { return nil }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)?.timeIntervalSince1970
    }

    /// 12 simulated beacons, exit timeout 3 s: most leave between 7 and 15 s, across the steps.
    /// Every exit must arrive 3–4 s (one ranging tick) after its beacon's last sighting on the
    /// host's clock, the region's ranging list must arrive once a second, and each event's
    /// `timestamp` must be the agent's (stepped) wall clock.
    @Test func aSteppedWallClockMovesNoExitAndNoRangingTick() throws {
        let broker = try MosquittoBroker()
        let witness = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { witness.stop() }
        let uuid = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
        let workspace = try Workspace(
            port: broker.port, gateway: "chaos",
            extra: "monitoring:\n  exit_timeout: 3s\nregions:\n  - name: office\n    uuid: \(uuid)\n")
        let started = Date().timeIntervalSince1970
        try Self.simulate(
            workspace, beacons: 12, seconds: 20,
            wallSteps: Self.wallSteps.map { "\(Int($0.at))=\(Int($0.by))" }.joined(separator: ","))
        let timed = witness.timedMessages

        // Exits: arrival − last sighting, both on the host's clock (the payload's times less the
        // agent's offset, read off the exit's own timestamp against its arrival).
        var exits = 0
        var wrong: [String] = []
        var stampsOff: [String] = []
        var segment = 0
        var offsetsSeen = Set<Double>()
        for (m, arrived) in timed where m.topic.hasPrefix("beacons/\(uuid)/") && m.topic.hasSuffix("/event") {
            guard let stamp = Self.seconds(rfc3339: Self.field(m.payload, "timestamp") as? String) else { continue }
            let offset = ((stamp - arrived) / 3600).rounded() * 3600
            let t = arrived - started
            offsetsSeen.insert(offset)
            if let next = Self.wallSegment(offset: offset, arrivedAt: t, from: segment) {
                segment = next
            } else {
                stampsOff.append(
                    "\(m.topic) arrived at \(String(format: "%.2f", t)) s, \(Int(offset)) s off, after segment \(segment)"
                )
            }
            guard Self.field(m.payload, "event") as? String == "exit" else { continue }
            exits += 1
            guard let seen = Self.seconds(rfc3339: Self.field(m.payload, "last_seen") as? String) else { continue }
            let after = arrived - (seen - offset)
            if after < 2.8 || after > 4.5 {
                wrong.append(
                    "\(m.topic) at \(String(format: "%.1f", t)) s: \(String(format: "%.2f", after)) s after its last sighting"
                )
            }
        }
        // Ranging: the region's list, once a ranging interval (1 s), from the first to the last.
        let lists = timed.filter { $0.message.topic.hasSuffix("/ranging") }.map(\.arrived)
        let gaps = zip(lists.dropFirst(), lists).map { $0 - $1 }
        let badGaps = gaps.filter { $0 < 0.6 || $0 > 1.4 }
        Self.report(
            "chaos wall-clock steps \(Self.wallSteps.map { "\(Int($0.by))s@\(Int($0.at))s" }.joined(separator: " ")) (seed \(Self.seed)): "
                + "\(exits) exits, \(wrong.count) early or late; \(lists.count) ranging lists, gaps "
                + "\(String(format: "%.2f", gaps.min() ?? 0))–\(String(format: "%.2f", gaps.max() ?? 0)) s, \(badGaps.count) off; "
                + "\(stampsOff.count) event timestamps not on the agent's wall clock")
        #expect(exits >= 4, "too few exits to judge: \(exits)")
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(lists.count >= 15)
        #expect(badGaps.isEmpty, "ranging list gaps: \(gaps)")
        #expect(stampsOff.isEmpty, "\(stampsOff)")
        // The steps were taken: some events carry the hour back, some the hour forward.
        #expect(offsetsSeen.isSuperset(of: [-3600, 3600]), "offsets seen: \(offsetsSeen.sorted())")
    }

    /// `run` with its embedded locator (same process, same stepped wall clock as the gateway's readings):
    /// +1 h at 6 s, back at 12 s. The locator must follow: each present beacon is located once, and
    /// none goes `not_home` (before the fix, the hour forward was decided at once with no reading in it).
    @Test func aSteppedWallClockSendsTheLocatorNoBeaconNotHome() throws {
        let broker = try MosquittoBroker()
        let witness = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { witness.stop() }
        let workspace = try Workspace(
            port: broker.port, gateway: "chaos", extra: "locator:\n  enabled: true\n")
        try Self.simulate(workspace, beacons: 3, seconds: 18, wallSteps: "6=3600,12=-3600")
        // The locator's events: `beacons/<uuid>/<major>/<minor>/event` (a gateway's have one level more).
        let events = witness.messages.filter {
            $0.topic.hasSuffix("/event") && $0.topic.split(separator: "/").count == 5
        }
        let kinds = events.compactMap { Self.field($0.payload, "event") as? String }
        let located = Set(events.filter { Self.field($0.payload, "event") as? String == "location" }.map(\.topic))
        let notHome = kinds.filter { $0 == "not_home" }.count
        let steps = workspace.logText.split(separator: "\n").filter { $0.contains("locator timeline moved") }.count
        Self.report(
            "chaos wall-clock steps +3600s@6s -3600s@12s, embedded locator (seed \(Self.seed)): \(located.count) beacons "
                + "located, \(kinds.count - notHome) location events, \(notHome) not_home; \(steps) steps followed")
        #expect(located.count >= 1, "\(workspace.logText.suffix(2000))")
        #expect(kinds.count - notHome == located.count, "a beacon was located more than once: \(kinds)")
        #expect(notHome == 0, "\(events.map(\.payload))")
        #expect(steps == 2, "\(workspace.logText.suffix(2000))")
    }
}
