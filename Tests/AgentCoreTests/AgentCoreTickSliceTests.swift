import AgentCore
import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import Testing
import Vocabulary

/// A ranging tick's burst in slices (`AgentCore.composeDeferred`, `TickSpread`), over the real
/// pipeline on a manual clock: the first slice at the tick, the rest spread over a quarter of the
/// interval and never more than the unwritten window at once, and an enter heard meanwhile
/// published ahead of the rest.
@Suite struct AgentCoreTickSliceTests {
    static let beacons = 100

    /// A live core with `beacons` beacons inside, their enters acknowledged.
    static func populated() -> LiveCore {
        var live = LiveCore { $0.ranging.publish.rangingList = true }
        live.connectAndRestore()
        for minor in 1...UInt16(beacons) {
            live.sight(LiveCore.report(minor: minor))
            live.acknowledgeAll()
        }
        return live
    }

    static func proximity(_ live: LiveCore) -> Int { live.broker.topics.filter { $0.hasSuffix("/proximity") }.count }

    /// Moves the clock in 10 ms steps until the next tick's first proximity message goes out.
    static func untilTick(_ live: inout LiveCore) -> MonotonicInstant {
        let before = proximity(live)
        while proximity(live) == before { live.pass(0.01) }
        return live.now
    }

    @Test func aTickGoesOutInPacedSlicesAndAnEnterHeardMeanwhileGoesFirst() throws {
        var live = Self.populated()
        let before = Self.proximity(live)
        let tick = Self.untilTick(&live)
        let results = Self.beacons + 1  // a proximity message each, and the region's list
        func released() -> Int {
            Self.proximity(live) - before + live.broker.topics.filter { $0.hasSuffix("/office/gw/ranging") }.count
        }
        #expect(released() == 16, "the first slice is the unwritten window")
        #expect(live.core.pipeline.deferredOutput == results - 16)

        // Heard just after the tick: its enter goes out now, ahead of the 85 results still waiting.
        live.sight(LiveCore.report(minor: 500))
        let enter = try #require(live.broker.published.lastIndex { $0.payload.contains(#""minor":500"#) })
        #expect(live.broker.published[enter].topic.hasSuffix("/event"))
        #expect(released() == 16)

        // Acknowledged at once, the rest still follows the clock: the spread's share by each step,
        // plus at most one slice, never all at once.
        live.acknowledgeAll()
        #expect(released() == 16)
        let wake = live.core.nextWake.seconds(since: live.now)
        #expect(wake > 0 && wake <= 0.25 * 16 / Double(results) + 0.001, "wakes for the next slice, not a second later")
        var steps = 0
        while live.core.pipeline.deferredOutput > 0, steps < 100 {
            live.pass(0.01)
            steps += 1
            let elapsed = live.now.seconds(since: tick)
            #expect(released() <= 16 + Int(Double(results) * elapsed / 0.25), "\(released()) out at \(elapsed) s")
            live.acknowledgeAll()
        }
        let done = live.now.seconds(since: tick)
        #expect(done >= 0.2 && done <= 0.27, "the tick took \(done) s; a quarter of the interval is 0.25 s")
        // Every result once; the newcomer's first is the next tick's.
        #expect(Self.proximity(live) - before == Self.beacons)
        #expect(released() == results)
    }

    /// Not connected, nothing is composed and at most one tick waits; a stop hands what waits to the
    /// outbox, which the shutdown flush then publishes.
    @Test func offlineATickWaitsAndAStopFlushesIt() {
        var live = Self.populated()
        _ = Self.untilTick(&live)
        live.core.handle(.mqtt(.disconnected(generation: 1)), at: live.now, wall: live.wall, &live.broker)
        let published = live.broker.published.count
        for _ in 0..<250 { live.pass(0.01) }  // two more ticks
        #expect(live.broker.published.count == published)
        #expect(live.core.pipeline.deferredOutput <= Self.beacons + 1)
        #expect(live.core.pipeline.deferredOutput > 0)
        let queued = live.core.counters.queued
        live.core.handle(.signal(.stop(name: "SIGTERM")), at: live.now, wall: live.wall, &live.broker)
        #expect(live.core.pipeline.deferredOutput == 0)
        #expect(live.core.counters.queued > queued)
    }
}
