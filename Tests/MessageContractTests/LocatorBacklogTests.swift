import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Testing

/// A locator that reads its messages faster than it decides them (a burst, a bridge draining a
/// backlog, a replay at speed) decides as one fed in real time: the rule takes tick T from the
/// readings stamped ≤ T, whatever arrived before the tick was decided.
@Suite struct LocatorBacklogTests {
    typealias H = LocatorHarness

    /// 60 s of a site: A (2 m) owns the beacon, B comes within 1 m at 30 s and takes over.
    static let readings: [(gw: String, metres: Double, at: Double)] = stride(from: 0.5, to: 60, by: 1).flatMap { s in
        [("A", 2.0, s), ("B", s < 30 ? 5.0 : 1.0, s + 0.2)]
    }

    /// Nearest: the first settled tick, then another floor outright on two readings (30.7, 31.7 s).
    /// Belief: the third tick of evidence, then another floor leading on two ticks (32, 33 s).
    @Test(arguments: [(LocatorSettings.Engine.nearest, [1.0, 32]), (.belief, [3, 33])])
    func sixtySecondsOfReadingsReadBeforeTheirTicksDecideAsInRealTime(engine: LocatorSettings.Engine, times: [Double]) {
        var settings = LocatorSettings()
        settings.engine = engine
        var live = H(settings)
        for r in Self.readings {
            live.advance(r.at)
            live.see(r.gw, r.metres, at: r.at)
        }
        live.advance(62)
        #expect(live.owners == ["A", "B"])
        #expect(live.eventTimes == times)

        // The same messages, all read before any tick is decided: in order, and shuffled.
        var rng = SeededRandom(state: 18)
        for order in [Self.readings, Self.readings.shuffled(using: &rng)] {
            var backlog = H(settings)
            for r in order { backlog.see(r.gw, r.metres, at: r.at) }
            backlog.advance(62)
            #expect(backlog.out == live.out, "\(backlog.owners) at \(backlog.eventTimes)")
        }
    }

    /// `history_window` may be up to 60 readings: a challenger 20 % closer in each of 20 readings
    /// (`min_history` 20) takes over with the nearest engine's sustained rule.
    @Test func aHistoryWindowOfTwentyReadingsIsKeptWhole() {
        var s = LocatorSettings.nearest
        s.handOver.historyWindow = 20
        s.handOver.minHistory = 20
        var h = H(s)
        for t in stride(from: 0.5, to: 60, by: 1) {
            h.see("C", 2.0, at: t)
            if t > 15 { h.see("B", 1.6, at: t + 0.1) }  // 20 % closer: sustained, never outright
            h.advance(t + 1)
        }
        #expect(h.owners == ["C", "B"])
        // B's 20th reading is stamped 34.6 s: decided at tick 35.
        #expect(h.eventTimes == [1, 35])
    }
}
