import AgentCore
import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Testing
import Vocabulary

/// Deadlines and timers follow the monotonic clock; the wall clock only stamps payloads.
@Suite struct AgentCoreClockTests {
    @Test func aSteppedWallClockMovesNoTickAndNoExit() {
        var h = CoreHarness { $0.mqtt.statsInterval = .seconds(60) }
        h.connectAndRestore()
        // Half-second turns; the wall clock jumps an hour forward, then back, between them.
        for turn in 1...12 {
            let step: Double = turn == 5 ? 3600 : turn == 9 ? -3600 : 0
            h.pass(0.5, wallStep: step)
            h.tick()
            #expect(h.core.nextWake <= h.now + .seconds(1))
        }
        // One advance per monotonic second (turns 2, 4, … 12; the restore made the first one), on
        // the steady timeline: a second apart, whatever the wall clock did.
        let seen = h.core.pipeline.advances
        #expect(seen.count == 1 + 6)
        #expect(zip(seen.dropFirst(), seen).allSatisfy { $0 - $1 == .seconds(1) })
        // Payloads get the step as an offset: +1 h from turn 5, none again from turn 9.
        #expect(h.core.pipeline.offsets == [.seconds(0), .seconds(3600), .seconds(0)])

        h.packet(1)
        h.handle(.signal(.stop(name: "SIGTERM")))
        h.pass(4.5, wallStep: -3600)
        h.tick()
        #expect(h.core.termination == nil, "an hour back on the wall clock must not delay or hasten the exit")
        h.pass(0.5, wallStep: 7200)
        h.tick()
        #expect(h.core.termination != nil)
    }

    @Test func uptimeAndRatesInStatsAreMonotonicTheTimestampIsWall() {
        var h = CoreHarness { $0.mqtt.statsInterval = .seconds(10) }
        h.connectAndRestore()
        h.packet(1)
        h.pass(9.7, wallStep: -3600)
        h.tick()
        let stats = h.broker.published.filter { $0.topic == "b/gateways/gw/stats" }
        #expect(stats.count == 1)
        let payload = stats.first?.payload ?? ""
        #expect(payload.hasPrefix(#"{"uptime":10,"reports":1,"reports_per_s":0.1,"#))
        #expect(
            payload.contains(
                #""reconnects":0,"degraded":null,"scan_mode":"passive","adapter":"auto","timestamp":"2023-11-14T2"#))
    }

    /// The real pipeline behind the core, a live source stamping packets on the steady timeline
    /// (start's wall clock + monotonic time, as `SteadyWallClock` does), and the wall clock stepped
    /// ±1 h while a beacon is in range: its exit fires exit_timeout after the last sighting on the
    /// monotonic clock (to the tick), and the exit's payload carries the stepped wall clock.
    @Test(arguments: [3600.0, -3600.0])
    func aWallClockStepNeitherHastensNorDelaysARealExit(step: Double) throws {
        var live = LiveCore()
        live.connectAndRestore()
        for _ in 0..<6 {
            live.sight()
            live.pass(0.5)
        }
        #expect(live.events("enter").count == 1)
        let lastSighting = live.now
        live.pass(0.2, wallStep: step)
        // Exit timeout 3 s: ticks every 0.25 s until 5 s after the last sighting.
        var exitAt: Double?
        while exitAt == nil, live.now.seconds(since: lastSighting) < 5 {
            live.pass(0.25)
            if !live.events("exit").isEmpty { exitAt = live.now.seconds(since: lastSighting) }
        }
        let after = try #require(exitAt, "no exit within 5 s of the last sighting (step \(step) s)")
        #expect(after >= 3 && after <= 4.25, "exit \(after) s after the last sighting")
        let exit = try #require(live.events("exit").first)
        let stamp = try #require(
            exit.split(separator: ",").first { $0.hasPrefix(#""timestamp":"#) }
                .flatMap { RetainedAttributes.timestamp(rfc3339: String($0.dropFirst(13).dropLast())) })
        #expect(abs((stamp - live.wall).microseconds) < 1_500_000, "payload time is the wall clock's")
    }

    /// `scanner.read_interval`: a report held in the kernel arrives up to the interval after its
    /// stamp. Stamped 0.1 s before its beacon's exit deadline and delivered 0.25 s later, it must
    /// keep the beacon in (no exit, no second enter): the timers run `sourceDelay` behind. Without
    /// the delay the exit fires first and the late report enters the beacon again.
    @Test(arguments: [0.25, 0.0])
    func aHeldReportStampedBeforeTheExitDeadlineKeepsTheBeaconIn(delay: Double) {
        var live = LiveCore(sourceDelay: TimeSpan(microseconds: Int64(delay * 1e6))) {
            $0.ranging.interval = .milliseconds(100)
        }
        live.connectAndRestore()
        for _ in 0..<4 {
            live.sight()
            live.pass(0.5)
        }
        live.sight()
        // Exit timeout 3 s: the next report was received at 2.9 s and read at 3.15 s.
        for _ in 0..<63 { live.pass(0.05) }
        live.sight(heldFor: 0.25)
        for _ in 0..<10 { live.pass(0.05) }
        if delay > 0 {
            #expect(live.events("enter").count == 1)
            #expect(live.events("exit").isEmpty)
        } else {
            #expect(live.events("exit").count == 1 && live.events("enter").count == 2, "the check must see the flap")
        }
    }

    /// HA's diagnostic sensors read the stats: the first go out 5 s after start, not a whole
    /// `stats_interval` (a minute by default) later; then every interval.
    @Test func theFirstStatsGoOutFiveSecondsAfterStartThenEveryInterval() {
        var h = CoreHarness { $0.mqtt.statsInterval = .seconds(60) }
        h.connectAndRestore()
        let stats = { h.broker.published.filter { $0.topic == "b/gateways/gw/stats" }.count }
        var seconds = 0.0
        while stats() == 0, seconds < 30 {
            h.pass(0.5)
            h.tick()
            seconds += 0.5
        }
        #expect(seconds <= 5, "first stats after \(seconds) s")
        #expect(
            h.broker.published.last { $0.topic == "b/gateways/gw/stats" }?.payload.contains(
                #""unresolved_private_addresses":0,"#) == true)
        for _ in 0..<100 {
            h.pass(0.5)
            h.tick()
        }
        #expect(stats() == 1, "the next ones follow the interval")
        h.pass(15)
        h.tick()
        #expect(stats() == 2)
    }

    /// `mqtt.stats_interval: 0` is off (docs/configuration.md): no stats at start nor ever after,
    /// and a reload turns them on (the first ones 5 s later, as at start) and off again.
    @Test func aStatsIntervalOfZeroSendsNoStatsUntilAReloadTurnsThemOn() {
        var h = CoreHarness { $0.mqtt.statsInterval = .seconds(0) }
        h.connectAndRestore()
        /// Stats published after `seconds` more of half-second turns, with `interval` reloaded first.
        func stats(after seconds: Double, reloading interval: Int64? = nil) -> Int {
            if let interval {
                var c = h.core.configuration
                c.mqtt.statsInterval = .seconds(interval)
                h.core.reloaded(.success(c))
            }
            for _ in 0..<Int(seconds * 2) {
                h.pass(0.5)
                h.tick()
            }
            return h.broker.published.filter { $0.topic == "b/gateways/gw/stats" }.count
        }
        #expect(stats(after: 600) == 0, "stats went out with stats_interval 0")
        #expect(
            stats(after: 6, reloading: 30) == 1,
            "the first stats follow 5 s after the tick that sees a reload turn them on")
        #expect(stats(after: 120, reloading: 0) == 1, "a reload to 0 turns them off again")
    }
}
