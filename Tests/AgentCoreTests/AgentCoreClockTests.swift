import AgentCore
import BeaconCore
import BeaconWire
import Testing

/// Deadlines and timers follow the monotonic clock; the wall clock only stamps payloads.
@Suite struct AgentCoreClockTests {
    @Test func aSteppedWallClockMovesNoTickAndNoExit() {
        var h = CoreHarness { $0.mqtt.statsInterval = .seconds(60) }
        h.connectAndRestore()
        var advances: [Timestamp] = []
        // Half-second turns; the wall clock jumps an hour forward, then back, between them.
        for turn in 1...12 {
            let step: Double = turn == 5 ? 3600 : turn == 9 ? -3600 : 0
            h.pass(0.5, wallStep: step)
            h.tick()
            #expect(h.core.nextWake <= h.now.adding(seconds: 1))
            advances.append(h.wall)
        }
        // One advance per monotonic second: turns 2, 4, … 12 (the restore made the first one).
        let seen = h.core.pipeline.advances
        #expect(seen.count == 1 + 6)
        // Payload time is the wall clock's, steps included.
        #expect(seen.last == advances.last)

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
        #expect(payload.contains(#""reconnects":0,"degraded":null,"scan_mode":"passive","adapter":"auto","timestamp":"2023-11-14T2"#))
    }
}
