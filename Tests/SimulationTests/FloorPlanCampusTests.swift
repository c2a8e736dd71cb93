import Foundation
import Testing

@testable import CLI
@testable import IntegrationSupport
@testable import Simulation

/// The campus generator (`FloorPlanGenerator`), its file (`FloorPlan.yamlText`) and the one-process
/// campus simulator (`FloorPlanCampus`), which must hear exactly what each gateway's own simulator hears.
@Suite struct FloorPlanCampusTests {
    static func generator(floors: Int = 3, perFloor: Int = 5, beacons: Int = 2, seed: UInt64 = 11) -> FloorPlanGenerator
    {
        var g = FloorPlanGenerator()
        g.floors = floors
        g.gatewaysPerFloor = perFloor
        g.beaconsPerGateway = beacons
        g.seed = seed
        g.duration = 200
        return g
    }

    @Test func theCampusHasEveryRoomAndBeacon() throws {
        let g = Self.generator()
        let plan = g.plan()
        #expect(plan.gateways.count == 15)
        #expect(Set(plan.gateways.map(\.id)).count == 15)
        #expect(plan.gateways.first?.id == "f1-g1" && plan.gateways.last?.id == "f3-g5")
        #expect(plan.gateways.filter { $0.floor == "2" }.map(\.room) == ["r1", "r2", "r3", "r4", "r5"])
        // 5 rooms on a 3-wide grid, 10 m apart.
        #expect(plan.gateways[4].x == 10 && plan.gateways[4].y == 10)
        #expect(plan.minors == Array(1...30))
        #expect(plan.duration >= 200)
        #expect(plan.sensitivityDBm == -90 && plan.advertInterval == 1)
        // Each room starts with two beacons, within 2 m of its gateway, on its floor.
        var starts: [String: Int] = [:]
        for minor in plan.minors {
            let first = try #require(plan.waypoints.first { $0.minor == minor })
            #expect(first.at == 0)
            let home = try #require(
                plan.gateways.first { $0.floor == first.floor && abs($0.x - first.x) <= 2 && abs($0.y - first.y) <= 2 })
            starts[home.id, default: 0] += 1
        }
        #expect(starts.count == 15 && starts.values.allSatisfy { $0 == 2 })
        #expect(FloorPlanGenerator().problem == nil)
        var tooMany = g
        tooMany.beaconsPerGateway = 4_370  // 65,550 beacons
        #expect(tooMany.problem?.contains("65,535") == true)
    }

    /// Rests alternate with walks of `walk` seconds to a neighbouring room or up/down one floor.
    @Test func beaconsRestThenWalkToANeighbouringRoom() throws {
        let g = Self.generator(floors: 2, perFloor: 9)
        let plan = g.plan()
        var stairs = 0
        var moves = 0
        for minor in plan.minors {
            let path = plan.waypoints.filter { $0.minor == minor }
            #expect(path.count % 2 == 1 && path.count >= 5)
            for i in stride(from: 0, to: path.count - 2, by: 2) {
                let rest = path[i + 1]
                let arrival = path[i + 2]
                #expect(rest.x == path[i].x && rest.y == path[i].y && rest.floor == path[i].floor)
                #expect(rest.at - path[i].at >= 20 - 0.05 && rest.at - path[i].at <= 60 + 0.05)
                #expect(abs(arrival.at - rest.at - 8) < 1e-9)
                // Rooms are 10 m apart, spots within 2 m of their gateway: a neighbour is 6–14 m
                // away on one axis and ≤ 4 m on the other; the stairs keep the room.
                let dx = abs(arrival.x - rest.x)
                let dy = abs(arrival.y - rest.y)
                if arrival.floor != rest.floor {
                    stairs += 1
                    #expect(abs(Int(arrival.floor)! - Int(rest.floor)!) == 1 && dx <= 4 && dy <= 4)
                } else {
                    #expect(
                        (dx >= 6 && dx <= 14 && dy <= 4) || (dy >= 6 && dy <= 14 && dx <= 4), "\(rest) → \(arrival)")
                }
                moves += 1
            }
        }
        #expect(moves > 100)
        #expect(stairs > 0 && stairs < moves / 4)
    }

    @Test func oneSeedIsOneCampus() {
        #expect(Self.generator().plan() == Self.generator().plan())
        #expect(Self.generator().plan().waypoints != Self.generator(seed: 12).plan().waypoints)
    }

    @Test func theFileReadsBackAsTheSamePlan() throws {
        let plan = Self.generator().plan()
        #expect(try FloorPlan.parse(plan.yamlText) == plan)
        var odd = try FloorPlan.parse(FloorPlanExample.threeGateways)
        odd.gateways[0].room = "hall: \"east\" \\ yes"
        odd.gateways[0].floor = "ground"
        odd.waypoints[0].floor = "ground"
        #expect(try FloorPlan.parse(odd.yamlText) == odd)
    }

    /// The campus simulator hears, gateway by gateway, exactly what `run --floor-plan --as-gateway` would.
    @Test func theCampusHearsWhatEachGatewayHears() throws {
        for plan in [Self.generator().plan(), try FloorPlan.parse(FloorPlanExample.threeGateways)] {
            let campus = FloorPlanCampus(plan: plan)
            let heard = campus.adverts(from: 17.3, to: 95)
            #expect(heard.count == plan.gateways.count)
            for (g, gateway) in plan.gateways.enumerated() {
                let own = try FloorPlanSimulator(plan: plan, gateway: gateway.id).adverts(from: 17.3, to: 95)
                #expect(!own.isEmpty)
                #expect(heard[g] == own, "\(gateway.id)")
            }
            // A host that runs a slice of the campus hears that slice the same.
            let slice = 1..<plan.gateways.count
            #expect(FloorPlanCampus(plan: plan, only: slice).adverts(from: 17.3, to: 95) == Array(heard[slice]))
        }
    }

    /// The radio model in the campus: a gateway hears the beacons of its own room far more often
    /// than those two rooms away, and next to nothing two floors away.
    @Test func nearerRoomsAreHeardMore() throws {
        let plan = Self.generator(floors: 3, perFloor: 9, beacons: 1).plan()
        let campus = FloorPlanCampus(plan: plan)
        let heard = campus.adverts(from: 0, to: 15)  // before anyone moves (rests are ≥ 20 s)
        let middle = try #require(plan.gateways.firstIndex { $0.id == "f2-g5" })
        func count(_ minor: UInt16) -> Int { heard[middle].filter { $0.minor == minor }.count }
        // Beacon i starts in room i-1 (numbered across floors): f2-g5 is room 13, f2-g6 room 14…
        #expect(count(14) >= 12)  // its own room, 15 adverts, 10 % lost
        #expect(count(14) > count(16))  // f2-g7, a diagonal room away
        let twoFloorsAway = heard.indices.filter { plan.gateways[$0].floor == "1" }.map { gw in
            heard[gw].filter { $0.minor >= 19 }.count  // beacons starting on floor 3
        }
        #expect(twoFloorsAway.reduce(0, +) < count(14))
    }
}
