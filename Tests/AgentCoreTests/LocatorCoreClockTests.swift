import AgentCore
import BeaconCore
import BeaconWire
import MessageContract
import Testing
import Vocabulary

/// The locator's decisions against a stepped wall clock, on a manual clock: a gateway on the same
/// host stamps its readings by the wall clock, so they step with it; the locator's timeouts must
/// not (no `not_home` at a step forward, no decision held back for an hour at a step back).
@Suite struct LocatorCoreClockTests {
    static let beacon = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1"
    var core: LocatorCore
    var broker = FakeBroker()
    var now = MonotonicInstant(nanoseconds: 3_000_000_000)
    var wall = Timestamp(microseconds: 1_714_564_800_000_000)  // 2024-05-01T12:00:00Z
    var logs: [String] = []

    init() {
        var settings = LocatorSettings()
        settings.staleAfter = .seconds(5)
        settings.awayTimeout = .seconds(10)
        core = LocatorCore(
            locator: Locator(settings: settings), clock: .wall, tick: .milliseconds(200), outboxLimit: 1000, now: now,
            wall: wall)
        core.handle(.mqtt(.connected(generation: 1)), at: now, wall: wall, &broker)
    }

    /// Both clocks move on by `seconds` in 0.2 s ticks; the wall clock by `wallStep` more at the first.
    mutating func pass(_ seconds: Double, wallStep: Double = 0, reading: Bool) {
        var step = wallStep
        for turn in 0..<Int((seconds / 0.2).rounded()) {
            now = now + .milliseconds(200)
            wall = wall + TimeSpan(microseconds: Int64(((0.2 + step) * 1e6).rounded()))
            step = 0
            if reading, turn % 5 == 4 {
                // Gateway A on this host, 1.5 m away, stamped by the (stepped) wall clock.
                let payload = #"{"accuracy":1.5,"floor":"1","room":"hall","timestamp":"\#(wall.rfc3339)"}"#
                core.handle(
                    .mqtt(.message(topic: "\(Self.beacon)/A/proximity", payload: Array(payload.utf8), retained: false)),
                    at: now, wall: wall, &broker)
            }
            core.tick(at: now, wall: wall, &broker)
            logs += core.takeActions().compactMap { if case .log(let r) = $0 { r.description } else { nil } }
        }
    }

    var events: [String] { broker.published.filter { $0.topic == "\(Self.beacon)/event" }.map(\.payload) }

    @Test(arguments: [3600.0, -3600.0])
    mutating func aSteppedWallClockSendsNoNotHomeAndHoldsNoDecisionBack(step: Double) {
        pass(6, reading: true)
        #expect(events.count == 1 && events[0].contains(#""gateway":"A""#), "\(events)")
        // The step, with the gateway reading on: still at A, nothing new published.
        pass(20, wallStep: step, reading: true)
        #expect(events.count == 1, "the step made the locator decide again: \(events)")
        #expect(
            logs.contains { $0.hasPrefix("info: wall clock stepped; locator timeline moved with it seconds=\(step)") },
            "\(logs)")
        // The beacon leaves: not_home away_timeout (10 s) after its last reading, on the monotonic clock.
        var after = 0.0
        while events.count == 1, after < 20 {
            pass(0.2, reading: false)
            after += 0.2
        }
        #expect(events.count == 2 && events[1].contains(#""event":"not_home""#), "\(events)")
        #expect(after >= 10 && after <= 11.6, "not_home \(after) s after the last reading")
    }
}
