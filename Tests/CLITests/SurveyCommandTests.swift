import CLI
import Foundation
import Testing

@testable import IntegrationSupport
@testable import Platform

/// `beacon2mqtt survey` on files as a user writes them: `mosquitto_sub -v` lines and marks.
@Suite struct SurveyCommandTests {
    static let beacon = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1"

    static func file(_ text: String, _ suffix: String) throws -> String {
        let path = NSTemporaryDirectory() + "b2m-survey-\(UUID().uuidString).\(suffix)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Kitchen (gateway K) for 60 s, then the den (gateway D) for 60 s; D reads 9 dB hot, so it
    /// seems stronger in the kitchen too. Unix seconds from 1,714,564,800 (2024-05-01).
    static func walk() throws -> (messages: String, marks: String) {
        var lines: [String] = ["beacons/gateways/K/status online", "not a message"]
        for second in 0..<120 {
            let kitchen = second < 60
            let stamp = "2024-05-01T12:\(String(format: "%02d:%02d", second / 60, second % 60)).100Z"
            for (gw, room, rssi) in [("K", "kitchen", kitchen ? -60 : -70), ("D", "den", (kitchen ? -66 : -58) + 9)] {
                lines.append(
                    "\(beacon)/\(gw)/proximity {\"accuracy\":2.0,\"rssi_filtered\":\(rssi),\"floor\":\"1\","
                        + "\"room\":\"\(room)\",\"timestamp\":\"\(stamp)\"}")
            }
        }
        let marks = "# room marks\n1714564800 kitchen\n2024-05-01T12:01:00Z den   # at the door\n"
        return (try file(lines.joined(separator: "\n"), "messages"), try file(marks, "marks"))
    }

    static func percent(_ line: Substring?) -> Double? {
        line.flatMap { Double($0.split(separator: " ")[1]) }
    }

    @Test func aHotGatewayGetsANegativeOffsetAndTheWalkScoresBetterAfter() throws {
        let (messages, marks) = try Self.walk()
        defer { for p in [messages, marks] { try? FileManager.default.removeItem(atPath: p) } }
        let run = CapturedRun(["survey", messages, marks])
        #expect(run.code == .success, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first == "walk 1: \(messages): 240 of 242 messages, 2 marks")
        #expect(lines.contains("beacon: e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1, gateways: D, K"))
        let before = try #require(Self.percent(lines.first { $0.hasPrefix("before:") }))
        let after = try #require(Self.percent(lines.first { $0.hasPrefix("after:") }))
        #expect(before < 60)
        #expect(after > 90)
        #expect(run.stdout.contains("locator:\n  rssi_offset:\n    D: -"))
    }

    /// The same walk stood still at a point of each room: the points come out as the plan's survey.
    @Test func pointMarksPrintTheSurveySection() throws {
        let (messages, roomMarks) = try Self.walk()
        let plan = try Self.file(
            """
            gateways:
              - {id: K, floor: "1", room: kitchen, x: 1, y: 2, z: 2}
              - {id: D, floor: "1", room: den, x: 9, y: 2, z: 2}
            rooms:
              - {floor: "1", name: kitchen, points: [[0, 0], [5, 0], [5, 4], [0, 4]]}
              - {floor: "1", name: den, points: [[5, 0], [10, 0], [10, 4], [5, 4]]}

            """, "yaml")
        let config = try Self.file("locator:\n  site_plan: \(plan)\n", "yaml")
        let marks = try Self.file("1714564800 @ 2 2\n2024-05-01T12:01:00Z @ 7.5 1.25 1\n", "marks")
        defer {
            for p in [messages, roomMarks, plan, config, marks] { try? FileManager.default.removeItem(atPath: p) }
        }
        let run = CapturedRun(["survey", "--config", config, messages, marks])
        #expect(run.code == .success, "\(run.stderr)")
        #expect(
            run.stdout.hasSuffix(
                """
                survey:
                  - {floor: "1", x: 2, y: 2, power: -59, rssi: {"D": -57, "K": -60}, readings: 58}
                  - {floor: "1", x: 7.5, y: 1.25, power: -59, rssi: {"D": -49, "K": -70}, readings: 57}

                """), "\(run.stdout)")
        // The section is the plan's: appended to it, the plan loads with its points.
        let surveyed = try Self.file(
            String(decoding: FileManager.default.contents(atPath: plan)!, as: UTF8.self)
                + run.stdout[run.stdout.range(of: "survey:\n")!.lowerBound...], "yaml")
        let check = try Self.file("locator:\n  site_plan: \(surveyed)\n", "yaml")
        defer { for p in [surveyed, check] { try? FileManager.default.removeItem(atPath: p) } }
        #expect(CapturedRun(["check-config", check]).code == .success)
        // Without a plan a point mark has no room.
        let bare = CapturedRun(["survey", messages, marks])
        #expect(bare.code == .dataError)
        #expect(bare.stderr.contains(":1: a point mark needs the site plan"))
        // A point outside every room.
        let outside = try Self.file("1714564800 @ 2 9\n", "marks")
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let run2 = CapturedRun(["survey", "--config", config, messages, outside])
        #expect(run2.code == .dataError)
        #expect(run2.stderr.contains(":1: (2, 9) lies in no room of floor 1 on the plan"), "\(run2.stderr)")
    }

    @Test func aMalformedMarkExits65NamingFileAndLine() throws {
        let (messages, good) = try Self.walk()
        let marks = try Self.file("1714564800 kitchen\nyesterday den\n", "marks")
        defer { for p in [messages, good, marks] { try? FileManager.default.removeItem(atPath: p) } }
        let run = CapturedRun(["survey", messages, marks])
        #expect(run.code == .dataError)
        #expect(run.stderr.hasPrefix("\(marks):2: a mark is"))
    }

    @Test func filesComeInPairs() {
        let run = CapturedRun(["survey", "walk.messages"])
        #expect(run.code == .usage)
    }
}
