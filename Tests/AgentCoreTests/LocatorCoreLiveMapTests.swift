import AgentCore
import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import MetricsContract
import Testing
import Vocabulary

/// The live map (`metrics.map`) from `locate`'s core on the messages' clock: the plan, the
/// gateways' state, each beacon where the locator places it with its track; nothing kept while off.
@Suite struct LocatorCoreLiveMapTests {
    static let beacon = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1"
    static let id = "e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1"

    /// Floor 1: the hall (gateway A) west of the lab (gateway B), each 5 × 4 m.
    static let plan: SitePlan = {
        func box(_ x0: Double, _ x1: Double) -> [SitePlan.Point] {
            [.init(x: x0, y: 0), .init(x: x1, y: 0), .init(x: x1, y: 4), .init(x: x0, y: 4)]
        }
        var p = SitePlan()
        p.rooms = [
            .init(floor: "1", name: "hall", outline: box(0, 5)), .init(floor: "1", name: "lab", outline: box(5, 10)),
        ]
        p.walls = [.init(floor: "1", points: [.init(x: 0, y: 0), .init(x: 10, y: 0)])]
        p.gateways = [
            .init(id: "A", floor: "1", room: "hall", position: .init(x: 1, y: 2, z: 1)),
            .init(id: "B", floor: "1", room: "lab", position: .init(x: 9, y: 2, z: 1)),
        ]
        return p
    }()

    var core: LocatorCore
    var broker = FakeBroker()
    let now = MonotonicInstant(nanoseconds: 0)
    let wall = Timestamp(microseconds: 1_714_564_800_000_000)

    init(map: Bool = true) {
        var settings = LocatorSettings()
        settings.positions.plan = Self.plan
        settings.positions.deadband = 0
        core = LocatorCore(
            locator: Locator(settings: settings), clock: .messages, tick: .milliseconds(200), outboxLimit: 1000,
            now: now, wall: wall, map: map)
    }

    mutating func handle(_ topic: String, _ payload: String) {
        core.handle(
            .mqtt(.message(topic: topic, payload: Array(payload.utf8), retained: false)), at: now, wall: wall, &broker)
    }

    /// Each gateway's reading of the beacon at (x(t), 2) every second from `seconds`.
    mutating func walk(seconds: ClosedRange<Int>, x: (Double) -> Double) {
        for s in seconds {
            let stamp = Timestamp(microseconds: wall.microseconds + Int64(s) * 1_000_000).rfc3339
            for g in Self.plan.gateways {
                let d = g.position.distance(to: SitePosition(x: x(Double(s)), y: 2, z: 1))
                let rssi = -59 - 20 * Foundation.log10(d)
                handle(
                    "\(Self.beacon)/\(g.id)/proximity",
                    #"{"accuracy":\#(d),"rssi":\#(rssi),"filtered_rssi":\#(rssi),"measured_power":-59,"floor":"1","room":"\#(g.room!)","timestamp":"\#(stamp)"}"#
                )
            }
        }
    }

    static func json(_ map: LiveMap) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(map.json.utf8)) as? [String: Any])
    }

    @Test mutating func theMapShowsThePlanTheGatewaysAndABeaconWalkingIntoAnotherRoom() throws {
        core.handle(.mqtt(.connected(generation: 1)), at: now, wall: wall, &broker)
        let empty = try #require(core.liveMap)
        #expect(empty.beacons.isEmpty && empty.floors == ["1"] && empty.rooms.map(\.name) == ["hall", "lab"])
        walk(seconds: 0...15) { _ in 1.5 }
        let before = core.mapVersion
        let inHall = try #require(core.liveMap?.beacons.first)
        #expect(inHall.id == Self.id && inHall.location.room == "hall" && inHall.color == LiveMap.palette[0])
        walk(seconds: 16...60) { t in min(1.5 + (t - 16) * 0.5, 8.5) }
        #expect(core.mapVersion > before)
        handle("beacons/gateways/B/status", "offline")
        let map = try #require(core.liveMap)
        let beacon = try #require(map.beacons.first)
        #expect(beacon.location.room == "lab" && beacon.color == LiveMap.palette[1])
        let x = try #require(beacon.location.position?.x)
        #expect(abs(x - 8.5) < 1.5)
        // The track went from the hall to the lab, oldest first, each point a move of its own.
        let track = beacon.track
        #expect(track.count > 10 && track.count <= LiveMapTrails.capacity)
        #expect(track.first!.x < 5 && track.last!.x > 5)
        #expect(
            zip(track, track.dropFirst()).allSatisfy {
                $0.at < $1.at && hypot($1.x - $0.x, $1.y - $0.y) >= LiveMapTrails.step
            })

        let o = try Self.json(map)
        #expect(o["floors"] as? [String] == ["1"])
        let rooms = try #require(o["rooms"] as? [[String: Any]])
        #expect(rooms.map { $0["color"] as? String } == [LiveMap.palette[0], LiveMap.palette[1]])
        #expect((rooms[0]["points"] as? [[Double]])?.count == 4)
        let gateways = try #require(o["gateways"] as? [[String: Any]])
        #expect(gateways.map { $0["id"] as? String } == ["A", "B"])
        #expect(gateways.map { $0["online"] as? Bool } == [true, false])
        // `/metrics` says the same of them; a degraded gateway cannot hear either, till it is online again.
        #expect(core.metrics.gateways == [.init(gateway: "A", up: true), .init(gateway: "B", up: false)])
        handle("beacons/gateways/A/status", "degraded")
        #expect(core.metrics.gateways.map(\.up) == [false, false])
        handle("beacons/gateways/A/status", "online")
        #expect(core.metrics.gateways.map(\.up) == [true, false])
        #expect(gateways[1]["x"] as? Double == 9)
        let b = try #require((o["beacons"] as? [[String: Any]])?.first)
        #expect(b["id"] as? String == Self.id && b["room"] as? String == "lab" && b["state"] as? String == "home")
        #expect(b["error_radius"] is Double && b["confidence"] is Double)
        #expect((b["track"] as? [[String: Any]])?.count == track.count)
        #expect(((o["walls"] as? [[String: Any]])?.first?["points"] as? [[Double]])?.count == 2)
    }

    @Test mutating func aTrackKeepsItsNewestMovesOnly() throws {
        // Still: no point more however long it stays, once its first estimates (named as soon as
        // both gateways spoke) have converged.
        walk(seconds: 0...5) { _ in 2 }
        let converged = try #require(core.liveMap?.beacons.first?.track.count)
        walk(seconds: 6...30) { _ in 2 }
        #expect((1...2).contains(converged) && core.liveMap?.beacons.first?.track.count == converged)
        // Pacing the hall and the lab: the newest `capacity` points.
        walk(seconds: 31...(LiveMapTrails.capacity * 3)) { t in Int(t) % 20 < 10 ? 1.5 : 8.5 }
        let track = try #require(core.liveMap?.beacons.first?.track)
        #expect(track.count == LiveMapTrails.capacity)
        #expect(track.last!.at.microseconds > wall.microseconds + Int64(LiveMapTrails.capacity * 2) * 1_000_000)
    }

    @Test func offKeepsNothing() {
        var off = LocatorCoreLiveMapTests(map: false)
        off.walk(seconds: 0...10) { _ in 1.5 }
        #expect(off.core.liveMap == nil && off.core.mapVersion == 0)
    }
}
