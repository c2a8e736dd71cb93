import AgentCore
import BeaconCore
import BeaconWire
import CLI
import Foundation
import MessageContract
import Settings
import Synchronization
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import Simulation

@Suite struct LocateFloorPlanTests {
    static let plan = try! FloorPlan.parse(FloorPlanExample.threeGateways)
    /// 2024-05-01T12:00:00Z.
    static let start = Timestamp(microseconds: 1_714_564_800_000_000)

    @Test func theExamplePlanParses() throws {
        let p = Self.plan
        #expect(p.seed == 7 && p.pathLossExponent == 2.7 && p.noiseDB == 4 && p.floorAttenuationDB == 15)
        #expect(p.gateways.map(\.id) == ["A", "B", "C"])
        #expect(p.gateways[1] == FloorPlan.Gateway(id: "B", floor: "2", room: "office", x: 8, y: 0))
        #expect(p.waypoints.count == 10 && p.minors == [1] && p.duration == 280)
    }

    @Test func rssiFollowsLogDistanceWithFloorAttenuation() throws {
        let a = try FloorPlanSimulator(plan: Self.plan, gateway: "A")
        let b = try FloorPlanSimulator(plan: Self.plan, gateway: "B")
        // At t = 0 the beacon is at (0, 1) on floor 1: 1 m from A; from B 8 m across, 1 m aside, 3 m up.
        #expect(abs(a.meanRSSI(minor: 1, at: 0)! - -59) < 1e-9)
        let d = (64.0 + 1 + 9).squareRoot()
        #expect(abs(b.meanRSSI(minor: 1, at: 0)! - (-59 - 27 * log10(d) - 15)) < 1e-9)
        // Half-way up the stairs (t = 50) it is at x = 4, on floor 2 from then on.
        let p = a.position(minor: 1, at: 50)!
        #expect(p.x == 4 && p.y == 1 && p.level == 2)
        #expect(throws: FloorPlanError.self) { try FloorPlanSimulator(plan: Self.plan, gateway: "Z") }
    }

    @Test func oneSeedIsOneScenarioAndWindowsAreIndependent() throws {
        let a = try FloorPlanSimulator(plan: Self.plan, gateway: "A")
        let whole = a.adverts(from: 0, to: 20)
        #expect(whole == a.adverts(from: 0, to: 7.3) + a.adverts(from: 7.3, to: 20))
        #expect(whole == (try FloorPlanSimulator(plan: Self.plan, gateway: "A")).adverts(from: 0, to: 20))
        // About 1 − loss of the 100 adverts arrive, with noise around −59 dBm.
        #expect((80...97).contains(whole.count))
        let mean = Double(whole.map { Int($0.rssi) }.reduce(0, +)) / Double(whole.count)
        #expect(abs(mean - -59) < 1.5)
        #expect(Set(whole.map(\.rssi)).count > 5)
        var reseeded = Self.plan
        reseeded.seed = 8
        #expect(try FloorPlanSimulator(plan: reseeded, gateway: "A").adverts(from: 0, to: 20) != whole)
        #expect(try FloorPlanSimulator(plan: Self.plan, gateway: "B").adverts(from: 0, to: 20) != whole)
    }

    @Test func theRealTimeSourceSendsAdvertisingReportsOfThePlansBeacon() throws {
        // A beacon that stays 1 m from A, so whatever the wall clock's phase, A hears it.
        var still = try FloorPlan.parse(
            "gateways:\n  - {id: A, floor: 1, room: hall, x: 0, y: 0}\nwaypoints:\n"
                + "  - {minor: 1, at: 0, x: 0, y: 1, floor: 1}\n  - {minor: 1, at: 10, x: 0, y: 1, floor: 1}")
        still.noiseDB = 2
        let source = try FloorPlanSource(plan: still, gateway: "A")
        let packets = Mutex<[CapturedPacket]>([])
        let thread = Thread {
            try? source.run { event in
                packets.withLock { $0 += event.carriedPackets }
                if packets.withLock({ $0.count }) >= 5 { source.stop() }
            }
        }
        thread.start()
        #expect(waitUntil(timeout: 10) { packets.withLock { $0.count } >= 5 })
        source.stop()
        var sightings: [BeaconSighting] = []
        for p in packets.withLock({ $0 }) {
            _ = try p.bytes.withUnsafeBytes { raw in
                try HCIPacketDecoder.forEachReport(in: raw, indicator: .present) { header, ad in
                    if let b = BeaconDecoder.firstIdentifiedBeacon(inAD: ad),
                        let s = BeaconSighting(
                            beacon: b, address: header.address, rssi: header.rssi, timestamp: p.timestamp)
                    {
                        sightings.append(s)
                    }
                }
            }
        }
        #expect(sightings.count >= 5)
        #expect(
            sightings.allSatisfy { $0.identity == .uuid(still.uuid, major: 1, minor: 1) && $0.measuredPower == -59 })
        // 1 m away: the measured power, −59 dBm, ± noise (σ 2 dB).
        #expect(sightings.allSatisfy { abs(Int($0.rssi) - -59) <= 12 })
    }

    /// With a start (`run --start-at`, as `make demo-floors` passes), the walk begins then, not at
    /// the wall clock's phase of the plan: nothing is heard before it, and the first adverts are the
    /// plan's first ones, stamped start + their offset (issue 34: the demo began mid-walk).
    @Test func aGivenStartBeginsTheWalkThen() throws {
        let plan = try FloorPlan.load(path: PackagePaths.root.appendingPathComponent("etc/floor-plan.yaml").path)
        let start = (Date().timeIntervalSince1970 + 1).rounded(.up)
        let source = try FloorPlanSource(plan: plan, gateway: "A", start: start)
        let packets = Mutex<[CapturedPacket]>([])
        let early = Mutex(false)
        let thread = Thread {
            try? source.run { event in
                if Date().timeIntervalSince1970 < start - 0.05 { early.withLock { $0 = true } }
                packets.withLock { $0 += event.carriedPackets }
                if packets.withLock({ $0.count }) >= 10 { source.stop() }
            }
        }
        thread.start()
        #expect(waitUntil(timeout: 10) { packets.withLock { $0.count } >= 10 })
        source.stop()
        #expect(!early.withLock { $0 }, "adverts before the start")
        let expected = source.simulator.adverts(from: 0, to: 5).prefix(10).map {
            Timestamp(microseconds: Int64((start + $0.offset) * 1_000_000))
        }
        #expect(packets.withLock { $0.prefix(10).map(\.timestamp) } == Array(expected))
    }

    /// The shipped plan rests 15 s at each gateway, as its comment and docs/locator.md say.
    @Test func theShippedPlanRestsFifteenSecondsAtEachGateway() throws {
        let plan = try FloorPlan.load(path: PackagePaths.root.appendingPathComponent("etc/floor-plan.yaml").path)
        let stops = zip(plan.waypoints, plan.waypoints.dropFirst()).filter { $0.x == $1.x && $0.y == $1.y }
        #expect(stops.map { $1.at - $0.at } == [15, 15, 15, 15])
        let rooms = stops.map { stop in plan.gateways.first { $0.x == stop.0.x && $0.floor == stop.0.floor }?.room }
        #expect(rooms == ["hall", "office", "lab", "office"])
    }

    /// The walk through the real gateway engine and the locator, in virtual time: A (floor 1)
    /// → B → C (floor 2) → B → A, with the simulator's RSSI noise.
    @Test func theLocatorFollowsTheWalkWithOneFlipPerMove() throws {
        var gateways = try Self.plan.gateways.map {
            try FloorPlanGateway(plan: Self.plan, gateway: $0.id, configuration: Configuration(), start: Self.start)
        }
        var locator = Locator()
        var events: [(Double, String)] = []
        for second in 1...290 {
            var published: [OutboundMessage] = []
            for i in gateways.indices { gateways[i].run(until: Double(second), into: &published) }
            for m in published { locator.handle(topic: m.topic, payload: m.payload.text) }
            var out: [OutboundMessage] = []
            locator.advance(to: Self.start + .seconds(Int64(second)), into: &out)
            for m in out where m.topic.hasSuffix("/event") {
                let l = locator.location(of: .uuid(Self.plan.uuid, major: 1, minor: 1))
                events.append(((l!.since - Self.start).seconds, l?.gateway ?? "-"))
            }
        }
        #expect(events.map(\.1) == ["A"] + FloorPlanExample.moves.map(\.to))
        for (move, event) in zip(FloorPlanExample.moves, events.dropFirst()) {
            #expect(
                move.during.contains(event.0)
                    || (event.0 > move.during.upperBound && event.0 <= move.during.upperBound + 15),
                "\(event) for \(move)")
        }
    }
}
