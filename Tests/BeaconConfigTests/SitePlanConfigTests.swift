import BeaconCore
import Glibc
import Settings
import Testing

@testable import BeaconConfig

@Suite struct SitePlanConfigTests {
    /// Writes `text` to a fresh file and returns its path.
    func file(_ text: String) -> String {
        var template = Array("/tmp/site-plan-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        return path
    }

    static let plan = """
        gateways:
          - {id: hall, floor: "1", room: hall, x: 1, y: 1, z: 2.2}
          - {id: lab, floor: "1", x: 9, y: 1}
        rooms:
          - floor: "1"
            name: hall
            points: [[0, 0], [5, 0], [5, 4], [0, 4]]
          - floor: "1"
            name: store
            points: [[5, 0], [10, 0], [10, 4], [5, 4]]
        walls:
          - {floor: "1", points: [[5, 0], [5, 4]]}
        path_loss_exponent: 2.4
        """

    @Test func theLocatorReadsRoomsGatewaysAndWalls() throws {
        let path = file(Self.plan)
        defer { unlink(path) }
        let plan = try #require(try parse("locator:\n  site_plan: \(path)\n").locator.positions.plan)
        #expect(plan.rooms.map(\.name) == ["hall", "store"])
        #expect(plan.gateways[0].position == SitePosition(x: 1, y: 1, z: 2.2))
        #expect(plan.gateways[1].room == nil)
        #expect(plan.gateways[1].position.z == 0)
        #expect(plan.walls.count == 1)
        #expect(plan.pathLossExponent == 2.4)
        #expect(plan.room(at: .init(x: 7, y: 2), floor: "1")?.name == "store")
        #expect(plan.room(at: .init(x: 7, y: 5), floor: "1") == nil)
        #expect(plan.nearestRoom(to: .init(x: 7, y: 5), floor: "1")?.name == "store")
        #expect(try parse("locator:\n  enabled: false\n").locator.positions.plan == nil)
    }

    @Test func theFlatsExamplePlanLoads() throws {
        let plan = try SitePlanFile.load(path: "bench/realdata/kolakowski_flat/site-plan.yaml")
        #expect(plan.gateways.count == 6)
        #expect(Set(plan.rooms.map(\.name)) == ["west room", "living room", "hall", "south-east room"])
        // The open-plan variant: the annex a zone of its own, receiver 6's.
        let zones = try SitePlanFile.load(path: "bench/realdata/kolakowski_flat/site-plan-zones.yaml")
        #expect(Set(zones.rooms.map(\.name)) == ["west room", "living room", "annex", "hall", "south-east room"])
        #expect(zones.room(at: .init(x: 8, y: 6), floor: "0")?.name == "annex")
        #expect(zones.room(at: .init(x: 5, y: 6), floor: "0")?.name == "living room")
        #expect(zones.gateways.first { $0.id == "receiver-6" }?.room == "annex")
    }

    /// Each mistake in the plan is reported at its own line in the plan's file.
    /// What loading `text` as a plan reports (its file named plan.yaml); nil when it loads.
    func mistake(_ text: String) -> String? {
        let path = file(text)
        defer { unlink(path) }
        do {
            _ = try SitePlanFile.load(path: path)
            return nil
        } catch {
            return error.description.replacing(path, with: "plan.yaml")
        }
    }

    @Test func eachMistakeIsNamedInThePlanFile() {
        #expect(
            mistake("rooms:\n  - {floor: \"1\", name: a, points: [[0, 0], [1, 0]]}\n")
                == "plan.yaml:2:35: rooms[0].points: expected at least 3 points [x, y], found 2")
        #expect(
            mistake("rooms:\n  - {floor: \"1\", name: a, points: [[0, 0], [1, 0], [2, 0]]}\n")
                == "plan.yaml:2:35: rooms[0].points: the outline encloses no area (its points lie on a line)")
        #expect(
            mistake("rooms:\n  - {floor: \"1\", name: a, points: [[0, 0], [1, 0, 2], [2, 1]]}\n")
                == "plan.yaml:2:44: rooms[0].points[1]: expected a point [x, y] in metres, found 3 numbers")
        #expect(
            mistake(
                "rooms:\n  - {floor: \"1\", name: a, points: [[0, 0], [1, 0], [1, 1]]}\n"
                    + "  - {floor: \"1\", name: a, points: [[0, 0], [1, 0], [1, 1]]}\n")
                == "plan.yaml:3:24: rooms[1].name: a floor's room names must be unique (also rooms[0])")
        #expect(
            mistake("rooms:\n  - {floor: \"1\", nme: a}\n")
                == "plan.yaml:2:18: rooms[0].nme: unknown key; did you mean 'name'?")
        #expect(
            mistake("gateways:\n  - {id: a, floor: \"1\", x: 0, y: 0}\n")
                == "plan.yaml:1:1: rooms: no rooms: the locator places beacons in them")
        #expect(
            mistake("path_loss_exponent: 9\nrooms:\n  - {floor: \"1\", name: a, points: [[0, 0], [1, 0], [1, 1]]}\n")
                == "plan.yaml:1:21: path_loss_exponent: must be between 1.2 and 6, found 9")
    }

    @Test func surveyPointsAreReadWithTheirReadings() throws {
        let path = file(
            Self.plan + """

                survey:
                  - {floor: "1", x: 2, y: 2, rssi: {hall: -61, lab: -80.5}}
                  - {floor: "1", x: 7, y: 3, power: -65, rssi: {lab: -70}, readings: 12}
                """)
        defer { unlink(path) }
        let plan = try SitePlanFile.load(path: path)
        #expect(
            plan.survey == [
                .init(floor: "1", point: .init(x: 2, y: 2), power: -59, rssi: ["hall": -61, "lab": -80.5]),
                .init(floor: "1", point: .init(x: 7, y: 3), power: -65, rssi: ["lab": -70], readings: 12),
            ])
        #expect(try SitePlanFile.load(path: file(Self.plan)).survey.isEmpty)
    }

    /// A survey point names gateways of the plan on its own floor, and lies in one of its rooms.
    @Test func eachSurveyMistakeIsNamedAtItsLine() {
        func mistake(_ point: String) -> String? { self.mistake(Self.plan + "\nsurvey:\n  - \(point)\n") }
        #expect(mistake("{floor: \"1\", x: 2, y: 2, rssi: {hall: -61}}") == nil)
        #expect(
            mistake("{floor: \"1\", x: 2, y: 2, rssi: {hal: -61}}")
                == "plan.yaml:15:42: survey[0].rssi.hal: no gateway hal on the plan")
        #expect(
            mistake("{floor: \"1\", x: 2, y: 5, rssi: {hall: -61}}")
                == "plan.yaml:15:21: survey[0].x: (2, 5) lies in no room of floor 1")
        #expect(
            mistake("{floor: \"2\", x: 2, y: 2, rssi: {hall: -61}}")
                == "plan.yaml:15:21: survey[0].x: (2, 2) lies in no room of floor 2")
        #expect(
            mistake("{floor: \"1\", x: 2, y: 2, rssi: {hall: -161}}")
                == "plan.yaml:15:43: survey[0].rssi.hall: must be between -127 and 20, found -161")
        #expect(
            mistake("{floor: \"1\", x: 2, y: 2, power: 5, rssi: {hall: -61}}")
                == "plan.yaml:15:37: survey[0].power: must be between -127 and 0, found 5")
        #expect(
            mistake("{floor: \"1\", x: 2, y: 2, rssi: {}}")
                == "plan.yaml:15:36: survey[0].rssi: no gateway: a point needs the rssi of at least one")
        #expect(
            mistake("{floor: \"1\", x: 2, y: 2}")
                == "plan.yaml:15:5: survey[0].rssi: missing; this entry needs it")
    }

    @Test func aPlanThatCannotBeReadIsNamedAtTheKey() {
        #expect(
            failure("locator:\n  site_plan: /nonexistent/plan.yaml\n")
                == "test.yaml:2:14: locator.site_plan: cannot read '/nonexistent/plan.yaml': No such file or directory")
        #expect(
            failure("locator:\n  position_deadband: -1\n")
                == "test.yaml:2:22: locator.position_deadband: must be between 0 and 100, found -1")
    }
}
