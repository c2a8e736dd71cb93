import BeaconConfig
import BeaconWire
import Foundation
import Testing

@testable import CLI
@testable import IntegrationSupport
@testable import Simulation

/// The floor-plan file read with the configuration's YAML reader: same values as before, errors
/// at `file:line:column: key`, and `run` exits 78 for a bad plan as for a bad configuration.
@Suite struct FloorPlanFileTests {
    static let header = "gateways:\n  - {id: A, floor: 1, room: hall, x: 0, y: 0}\n"

    /// The error `text` gives, as printed.
    static func error(_ text: String) -> String {
        do {
            _ = try FloorPlan.parse(text, file: "plan.yaml")
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func theShippedPlansParse() throws {
        let shipped = try FloorPlan.load(path: "etc/floor-plan.yaml")
        #expect(shipped.gateways.map(\.room) == ["hall", "office", "lab"])
        #expect(shipped.waypoints.count == 9 && shipped.duration == 100 && shipped.seed == 7)
        let example = try FloorPlan.parse(FloorPlanExample.threeGateways)
        #expect(example.gateways[2] == FloorPlan.Gateway(id: "C", floor: "2", room: "lab", x: 16, y: 0))
        #expect(example.waypoints.first == FloorPlan.Waypoint(minor: 1, at: 0, x: 0, y: 1, floor: "1"))
    }

    @Test func everyKeyIsRead() throws {
        let plan = try FloorPlan.parse(
            """
            seed: 18446744073709551615
            uuid: 11111111-2222-3333-4444-555555555555
            major: 7
            measured_power: -61
            path_loss_exponent: 3.1
            noise_db: 2
            floor_attenuation_db: 12
            floor_height: 3.5
            sensitivity_dbm: -95
            advert_interval: 0.5
            loss: 0
            gateways:
              - id: A
                floor: ground
                room: hall
                x: 1.5
                y: -2
            waypoints:
              - {minor: 3, at: 10, x: 0, y: 0, floor: ground}
              - {minor: 2, at: 5, x: 0, y: 0, floor: ground}
              - {minor: 2, at: 0, x: 0, y: 0, floor: ground}
            """)
        #expect(plan.seed == .max && plan.major == 7 && plan.measuredPower == -61 && plan.pathLossExponent == 3.1)
        #expect(plan.uuid.uuidString == "11111111-2222-3333-4444-555555555555")
        #expect(plan.noiseDB == 2 && plan.floorAttenuationDB == 12 && plan.floorHeight == 3.5)
        #expect(plan.sensitivityDBm == -95 && plan.advertInterval == 0.5 && plan.loss == 0)
        #expect(plan.gateways == [FloorPlan.Gateway(id: "A", floor: "ground", room: "hall", x: 1.5, y: -2)])
        #expect(plan.waypoints.map { [Double($0.minor), $0.at] } == [[2, 0], [2, 5], [3, 10]])
    }

    @Test func errorsNameFileLineColumnAndKey() {
        #expect(
            Self.error("seed: 1\nspeed: 3\n" + Self.header) == "plan.yaml:2:1: speed: unknown key; did you mean 'seed'?"
        )
        #expect(
            Self.error("gateways:\n  - {id: A, floor: 1, x: 0, y: 0}")
                == "plan.yaml:2:5: gateways[0].room: missing; this entry needs it")
        #expect(
            Self.error("gateways:\n  - {id: A, floor: 1, room: r, x: abc, y: 0}")
                == "plan.yaml:2:35: gateways[0].x: expected a number, found 'abc'")
        #expect(
            Self.error("gateways:\n  - {id: A, floor: 1, room: r, x: 0, y: 0, w: 1}").hasPrefix(
                "plan.yaml:2:44: gateways[0].w: unknown key;"))
        // The locator's keys are the same file's: a site plan is a floor plan the simulator can walk.
        #expect(
            Self.error(
                "gateways:\n  - {id: A, floor: 1, room: r, x: 0, y: 0, z: 2}\n"
                    + "rooms:\n  - {floor: 1, name: r, points: [[0, 0], [1, 0], [1, 1]]}\nwalls: []") == "no error")
        #expect(Self.error("seed: 1") == "plan.yaml:1:1: gateways: no gateways")
        #expect(Self.error("# nothing\n") == "plan.yaml: gateways: no gateways")
        #expect(
            Self.error(Self.header + "  - {id: A, floor: 2, room: r, x: 0, y: 0}")
                == "plan.yaml:3:10: gateways[1].id: gateway ids must be unique (also gateways[0])")
        #expect(
            Self.error("loss: 1\n" + Self.header) == "plan.yaml:1:7: loss: must be below 1 (every advert lost), found 1"
        )
        #expect(Self.error("loss: -0.1\n" + Self.header) == "plan.yaml:1:7: loss: must be between 0 and 1, found -0.1")
        #expect(
            Self.error("advert_interval: 0.01\n" + Self.header)
                == "plan.yaml:1:18: advert_interval: must be at least 0.02, found 0.01")
        #expect(Self.error("seed: -1\n" + Self.header) == "plan.yaml:1:7: seed: expected a whole number ≥ 0")
        #expect(
            Self.error("major: 70000\n" + Self.header)
                == "plan.yaml:1:8: major: must be between 0 and 65535, found 70000")
        #expect(Self.error("uuid: nope\n" + Self.header) == "plan.yaml:1:7: uuid: expected a UUID")
        #expect(
            Self.error(Self.header + "waypoints:\n  - {minor: 1, at: -1, x: 0, y: 0, floor: 1}")
                == "plan.yaml:4:20: waypoints[0].at: must be at least 0, found -1")
        #expect(
            Self.error("gateways: 3") == "plan.yaml:1:11: gateways: expected a list (items start with '- '), found '3'")
        // libyaml's own syntax errors keep its position.
        #expect(Self.error("gateways:\n  - {id: A, floor: 1\n").hasPrefix("plan.yaml:3:1: "))
        #expect(Self.error("seed: 1\nseed: 2\n" + Self.header).hasPrefix("plan.yaml:2:1: seed: duplicate key"))
    }

    @Test func anUnreadableFileNamesItsPath() {
        #expect(throws: ConfigError.self) { try FloorPlan.load(path: "/nonexistent/plan.yaml") }
        #expect((try? FloorPlan.load(path: "/nonexistent/plan.yaml")) == nil)
        do {
            _ = try FloorPlan.load(path: "/nonexistent/plan.yaml")
        } catch {
            #expect(error.description.hasPrefix("/nonexistent/plan.yaml: cannot read: "))
        }
    }

    @Test func runExits78OnABadFloorPlanLikeABadConfiguration() throws {
        let workspace = try Workspace(port: 1)
        let plan = workspace.directory.appendingPathComponent("plan.yaml").path
        try "seed: 1\nspeed: 3\n\(Self.header)".write(toFile: plan, atomically: true, encoding: .utf8)
        let agent = try workspace.start(["--simulate", "--floor-plan", plan, "--as-gateway", "A"])
        #expect(agent.wait(timeout: 20) == 78)
        #expect(workspace.logText.contains("\(plan):2:1: speed: unknown key"), "\(workspace.logText)")

        try Self.header.write(toFile: plan, atomically: true, encoding: .utf8)
        let stranger = try workspace.start(["--simulate", "--floor-plan", plan, "--as-gateway", "Z"])
        #expect(stranger.wait(timeout: 20) == 78)
        #expect(workspace.logText.contains("no gateway 'Z' in the floor plan (have A)"), "\(workspace.logText)")
    }
}
