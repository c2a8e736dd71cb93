import CLI
import Foundation
import Testing

@testable import IntegrationSupport
@testable import Platform

/// Every shared capture, replayed through the whole pipeline, must reproduce the facts its
/// independent expected-*.txt (Python analyser + tshark) states.
@Suite struct ReplayCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/captures")

    /// capture file → its expected file.
    static let captures: [(capture: String, expected: String)] = [
        (
            "csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log",
            "expected-csacca-horizon74_legacy-scanrsp-ibeacon.txt"
        ),
        (
            "csacca-horizon74_legacy-scanrsp-ibeacon.pcapng",
            "expected-csacca-horizon74_legacy-scanrsp-ibeacon.pcapng.txt"
        ),
        ("wangdalian-btsnooper_ext-adv_btsnoop_hci.log", "expected-wangdalian-btsnooper_ext-adv.txt"),
        ("goodystone-estimote-eddystone_hcidump-raw.txt", "expected-goodystone-estimote-eddystone_hcidump-raw.txt"),
    ]

    /// The facts of section A that replay can reproduce.
    struct Expected {
        var reports = 0
        var malformed = 0
        var identifiedFrames = 0
        /// Every beacon frame, with an identity or not (Eddystone TLM, URL, EID).
        var frames = 0
        /// "uuid/major/minor" for iBeacons, "eddystone/<ns>/<inst>" for Eddystone-UID.
        var identities: Set<String> = []

        init(_ text: String) {
            for raw in text.split(separator: "\n") {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("# Section B") { break }
                if line.hasPrefix("adv_reports:") {
                    let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
                    reports = numbers[0]
                    malformed = numbers[1]
                } else if line.hasPrefix("beacon_frames_by_kind:") {
                    let json = line.dropFirst("beacon_frames_by_kind:".count)
                    let kinds = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Int] ?? [:]
                    identifiedFrames =
                        (kinds["ibeacon"] ?? 0) + (kinds["altbeacon"] ?? 0) + (kinds["eddystone_uid"] ?? 0)
                    frames = kinds.values.reduce(0, +)
                } else if line.hasPrefix("ibeacon uuid=") {
                    let f = Self.fields(line)
                    identities.insert("\(f["uuid"]!)/\(f["major"]!)/\(f["minor"]!)")
                } else if line.hasPrefix("eddystone_uid/") {
                    let parts = line.split(separator: " ")[0].split(separator: "/")
                    identities.insert("eddystone/\(parts[1])/\(parts[2])")
                }
            }
        }

        static func fields(_ line: String) -> [String: String] {
            var out: [String: String] = [:]
            for token in line.split(separator: " ") where token.contains("=") {
                let kv = token.split(separator: "=", maxSplits: 1)
                out[String(kv[0])] = String(kv[1])
            }
            return out
        }
    }

    @Test(arguments: captures.map(\.capture))
    func replayReproducesTheIndependentlyVerifiedCounts(capture: String) throws {
        let expectedName = Self.captures.first { $0.capture == capture }!.expected
        let expected = Expected(
            try String(contentsOf: Self.fixtures.appendingPathComponent(expectedName), encoding: .utf8))
        #expect(expected.reports > 0, "expected file not parsed")
        let path = Self.fixtures.appendingPathComponent(capture).path
        let run = CapturedRun(["replay", path, "--output", "jsonl"])
        #expect(run.code == .success, "\(run.stderr)")

        let summary = run.stderr
        #expect(summary.contains(" \(expected.reports) reports,"), "\(summary)")
        #expect(
            summary.contains(" \(expected.frames) beacon frames (\(expected.identifiedFrames) with an identity),"),
            "\(summary)")
        let beacons = expected.identities.count
        #expect(summary.contains(" \(beacons) \(beacons == 1 ? "beacon" : "beacons"),"), "\(summary)")
        #expect(summary.contains(" \(expected.malformed) malformed,"), "\(summary)")

        var entered: Set<String> = []
        var exited: Set<String> = []
        let lines = run.stdout.split(separator: "\n")
        #expect(summary.contains(" \(lines.count) messages "), "\(summary)")
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["topic", "payload", "qos", "retain"])
            let topic = try #require(object["topic"] as? String)
            guard topic.hasSuffix("/event"), let payload = object["payload"] as? [String: Any] else { continue }
            let levels = topic.split(separator: "/").map(String.init)
            #expect(levels[0] == "beacons")
            let identity = levels[1..<4].joined(separator: "/")
            #expect(object["qos"] as? Int == 1)
            #expect(object["retain"] as? Bool == false)
            switch payload["event"] as? String {
            case "enter": entered.insert(identity)
            case "exit": exited.insert(identity)
            default: Issue.record("unexpected event payload \(payload)")
            }
        }
        #expect(entered == expected.identities)
        #expect(exited == expected.identities, "every beacon exits once the capture ends (drain)")
    }

    /// Issue #15: the Estimote capture has 7 frames of one beacon (2 UID, 1 TLM, 4 URL from one address);
    /// replay counts them so and publishes its telemetry: the TLM at once (the first one), then at the
    /// end of the window what was heard since (the URLs), both with the capture's own TLM values.
    @Test func estimoteCaptureReplaysOneBeaconWithItsTelemetry() throws {
        let path = Self.fixtures.appendingPathComponent("goodystone-estimote-eddystone_hcidump-raw.txt").path
        let run = CapturedRun(["replay", path])
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stderr.contains(" 7 beacon frames (2 with an identity), 1 beacon,"), "\(run.stderr)")
        #expect(run.stderr.contains("(1 enter, 1 exit, 2 telemetry)"), "\(run.stderr)")
        let telemetry = run.stdout.split(separator: "\n").filter { $0.contains("/telemetry ") }
        try #require(telemetry.count == 2, "\(run.stdout)")
        let topic = "beacons/eddystone/edd1ebeac04e5defa017/ebb1cb1c7cc1/\(HostName.gatewayID())/telemetry"
        var payloads: [[String: Any]] = []
        for line in telemetry {
            let parts = line.split(separator: " ", maxSplits: 1)
            #expect(parts[0] == topic)
            payloads.append(try #require(try JSONSerialization.jsonObject(with: Data(parts[1].utf8)) as? [String: Any]))
        }
        for p in payloads {
            #expect(p["battery_mv"] as? Int == 2925)
            #expect(p["temperature"] as? Double == 32.75)
            #expect(p["adv_count"] as? Int == 400_151)
            #expect(p["uptime_s"] as? Double == 442_284)
            #expect(p["tx_power"] as? Int == -21)
            #expect(p["tx_power_at_m"] as? Int == 0)
            #expect(p["address"] as? String == "eb:b1:cb:1c:7c:c1")
            #expect(p["low_battery"] as? Bool == false)
        }
        // The hcidump text has no times: the reader spaces packets 100 ms apart, so the UID frames
        // (packets 1 and 2) are 100 ms apart and the TLM (packet 3) comes at 0.2 s.
        #expect(payloads[0]["interval_ms"] as? Int == 100)
        #expect(payloads[0]["timestamp"] as? String == "1970-01-01T00:00:00.200Z")
        #expect(payloads[0]["url"] is NSNull)
        #expect(payloads[1]["url"] as? String == "http://go.esti.be")
        #expect(payloads[1]["timestamp"] as? String == "1970-01-01T00:01:00.200Z")
    }

    @Test func aTruncatedCaptureIsProcessedUpToTheDamageThenExits65WithTheOffset() throws {
        let source = Self.fixtures.appendingPathComponent("csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log")
        let bytes = try Data(contentsOf: source)
        let cut = bytes.count / 5
        let path = NSTemporaryDirectory() + "b2m-truncated-\(UUID().uuidString).log"
        try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let full = CapturedRun(["replay", source.path, "--output", "none", "--no-drain"])
        let partial = CapturedRun(["replay", path, "--output", "none", "--no-drain"])
        #expect(partial.code == .dataError)
        #expect(partial.stderr.contains("\(path): "))
        #expect(partial.stderr.contains("offset"))
        let count = { (text: String) -> Int in
            let head = text.components(separatedBy: " reports,")[0]
            return Int(head.split(separator: " ").last!)!
        }
        let partialReports = count(partial.stderr)
        #expect(partialReports > 0)
        #expect(partialReports < count(full.stderr))
    }

    @Test func regionsFromTheConfigNameTheRegionTopics() throws {
        let config = """
            gateway:
              id: hall
            regions:
              - name: sensors
                uuid: 494E5445-4C4C-495F-524F-434B535F4857
                major: 20594
            """
        let configPath = NSTemporaryDirectory() + "b2m-replay-\(UUID().uuidString).yaml"
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: configPath) }
        let path = Self.fixtures.appendingPathComponent("csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log").path
        let run = CapturedRun(["replay", path, "--config", configPath, "--output", "events"])
        #expect(run.code == .success, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("beacons/regions/sensors/hall/event ") }.count == 2)
        // major 20597 matches no region, so it is ignored.
        #expect(!run.stdout.contains("/20597/"))
        #expect(lines.contains { $0.hasPrefix("beacons/494e5445-4c4c-495f-524f-434b535f4857/20594/62207/hall/event ") })
    }

    @Test func aBadConfigExits78AndAMissingCaptureExits66() {
        #expect(CapturedRun(["replay", "/nonexistent.log"]).code == .noInput)
        #expect(CapturedRun(["replay", "/nonexistent.log", "--config", "/nonexistent.yaml"]).code == .config)
        #expect(CapturedRun(["replay", "x.log", "--output", "xml"]).code == .usage)
    }
}
