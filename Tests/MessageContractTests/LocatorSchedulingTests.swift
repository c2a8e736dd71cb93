import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Testing
import Vocabulary

/// The locator decides at a tick only the beacons whose decision can change then (a message since
/// their last decision, or a due `LocatorTrack.nextDecision`). Proved against the rule as written,
/// every beacon at every tick (`decidesEveryTrack`): random sites with readings early, late and
/// out of order, exit events, gateways going offline and back, restored locations, clock jumps,
/// short timeouts so every deadline comes, and a reconfiguration, give byte-identical output.
@Suite struct LocatorSchedulingTests {
    static let gateways: [(id: String, floor: String, room: String)] = [
        ("A", "1", "hall"), ("B", "1", "kitchen"), ("C", "2", "office"), ("D", "2", "lab"), ("E", "3", "attic"),
    ]

    static func settings(_ rng: inout SeededRandom, engine: LocatorSettings.Engine) -> LocatorSettings {
        var s = LocatorSettings()
        s.engine = engine
        s.interval = .seconds(1)
        s.settle = .milliseconds(Int64(rng.next() % 1500))
        s.staleAfter = .seconds(Int64(2 + rng.next() % 12))
        s.awayTimeout = .seconds(Int64(3 + rng.next() % 20))
        s.handOver.minDwell = .seconds(Int64(rng.next() % 6))
        s.handOver.historyWindow = Int(1 + rng.next() % 5)
        s.handOver.minHistory = Int(1 + rng.next() % 4)
        s.floorConfirmations = Int(1 + rng.next() % 3)
        if rng.next() % 3 == 0 { s.mqttRoomTopic = "room_presence" }
        return s
    }

    @Test(arguments: LocatorSettings.Engine.allCases)
    func decidingOnlyTheDueBeaconsPublishesWhatDecidingEveryBeaconDoes(engine: LocatorSettings.Engine) {
        var rng = SeededRandom(state: 18)
        var changes = 0
        var skipped = 0
        for site in 0..<40 {
            let settings = Self.settings(&rng, engine: engine)
            let publishesRoom = rng.next() % 2 == 0
            var due = Locator(settings: settings, publishesRoom: publishesRoom)
            var every = due
            every.decidesEveryTrack = true
            var outDue: [OutboundMessage] = []
            var outEvery: [OutboundMessage] = []
            var now = 0.0
            let beacons = (1...UInt16(2 + rng.next() % 6)).map { Fixtures.beacon($0) }
            for step in 0..<400 {
                var inputs: [(inout Locator) -> Void] = []
                for _ in 0..<Int(rng.next() % 4) {
                    let beacon = beacons[Int(rng.next() % UInt64(beacons.count))]
                    let g = Self.gateways[Int(rng.next() % UInt64(Self.gateways.count))]
                    // Stamped up to 2 s before the clock (late) or 1.5 s after it (a clock ahead).
                    let at = Fixtures.at(now - 2 + Double(rng.next() % 35) / 10)
                    switch rng.next() % 20 {
                    case 0:
                        inputs.append { $0.gatewayLost(beacon, gateway: g.id, at: at) }
                    case 1:
                        let online = rng.next() % 2 == 0
                        inputs.append { $0.setGateway(g.id, online: online) }
                    case 2:
                        let l = LocatorLocation(
                            gateway: g.id, floor: g.floor, room: g.room, accuracy: 1.5, since: at, confidence: 1,
                            lastSeen: at)
                        inputs.append { $0.restore(beacon, l) }
                    default:
                        let r = LocatorReading(
                            beacon: beacon, gateway: g.id, floor: g.floor, room: g.room, measuredPower: -59,
                            accuracy: 0.5 + Double(rng.next() % 80) / 10, timestamp: at)
                        inputs.append { $0.observe(r) }
                    }
                }
                for input in inputs {
                    input(&due)
                    input(&every)
                }
                if step == 200 {
                    var next = Self.settings(&rng, engine: engine)
                    next.interval = settings.interval
                    due.reconfigure(
                        settings: next, qos: 1, distance: DistanceSettings(), publishesRoom: true, into: &outDue)
                    every.reconfigure(
                        settings: next, qos: 1, distance: DistanceSettings(), publishesRoom: true, into: &outEvery)
                }
                // Mostly a few hundred ms, sometimes a silent stretch of up to 40 s.
                now += rng.next() % 25 == 0 ? Double(rng.next() % 40) : Double(rng.next() % 800) / 1000
                due.advance(to: Fixtures.at(now), into: &outDue)
                every.advance(to: Fixtures.at(now), into: &outEvery)
                guard outDue == outEvery, due.trackedCount == every.trackedCount else {
                    let first =
                        zip(outDue, outEvery).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                        ?? min(outDue.count, outEvery.count)
                    Issue.record(
                        """
                        site \(site) step \(step) (clock \(now) s): message \(first) differs
                        due:   \(first < outDue.count ? outDue[first].payload.text : "none")
                        every: \(first < outEvery.count ? outEvery[first].payload.text : "none")
                        """)
                    return
                }
            }
            changes += due.counts.changes
            skipped += every.counts.decisions - due.counts.decisions
        }
        // The scenarios decide something, and the schedule really leaves decisions out.
        #expect(changes > 500)
        #expect(skipped > 10_000)
    }
}
