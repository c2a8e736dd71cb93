import CLI
import Foundation
import Testing

@testable import IntegrationSupport
@testable import Platform

@Suite struct DecodeCommandTests {
    /// A real iBeacon LE Advertising Report (AirLocate UUID, major 100, minor 0, power −59, RSSI −77).
    static let iBeaconEvent =
        "043E2A02010001433EA2C96B6A1E02011A1AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000640000C5B3"
    /// A real iPhone advert: Apple manufacturer data of type 0x0F, which is not an iBeacon.
    static let iPhoneEvent = "043E2202010001433EA2C96B6A1602011A020A0C0FFF4C000F06A033BD08C5001002440CC4"

    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func decodesTheIBeaconAndRejectsTheIPhoneAdvert() throws {
        let run = CapturedRun(["decode", Self.iBeaconEvent, Self.iPhoneEvent])
        #expect(run.code == .success)
        let reports = try Self.objects(run.stdout)
        #expect(reports.count == 2)
        #expect(reports[0]["address"] as? String == "6a:6b:c9:a2:3e:43")
        #expect(reports[0]["rssi"] as? Int == -77)
        let beacons = try #require(reports[0]["beacons"] as? [[String: Any]])
        #expect(beacons.count == 1)
        #expect(beacons[0]["type"] as? String == "ibeacon")
        #expect(beacons[0]["uuid"] as? String == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
        #expect(beacons[0]["major"] as? Int == 100)
        #expect(beacons[0]["minor"] as? Int == 0)
        #expect(beacons[0]["measured_power"] as? Int == -59)
        #expect((reports[1]["beacons"] as? [Any])?.isEmpty == true)
    }

    @Test func truncatedBytesExit65WithTheOffsetOnStderr() {
        let run = CapturedRun(["decode", String(Self.iBeaconEvent.prefix(40))])
        #expect(run.code == .dataError)
        #expect(run.code.rawValue == 65)
        #expect(run.stderr.contains("offset"))
        #expect(run.stdout.isEmpty)
    }

    @Test func notHexIsADataError() {
        let run = CapturedRun(["decode", "04zz"])
        #expect(run.code == .dataError)
        #expect(run.stderr.contains("not hex"))
    }

    @Test func bareAdvertisingDataWithTheAdFlag() throws {
        // The AD data of the iBeacon event above: skip 04 3E 2A 02 01 00 01 + address (6) + length (1).
        let ad = String(Self.iBeaconEvent.dropFirst(2 * 14).dropLast(2))
        let run = CapturedRun(["decode", "--ad", ad])
        #expect(run.code == .success)
        let object = try #require(try Self.objects(run.stdout).first)
        #expect((object["beacons"] as? [[String: Any]])?.first?["major"] as? Int == 100)
        #expect((object["ad"] as? [Any])?.count == 2)
    }

    @Test func otherEventsAreNotedButNotErrors() {
        // Command Complete for HCI_Reset.
        let run = CapturedRun(["decode", "040E0401030C00"])
        #expect(run.code == .success)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("HCI event 0x0e"))
    }

    // MARK: - What a new user types (issue 17, defects 2 and 3)

    static let text = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/text")

    /// `decode` fed on standard input through a shell, as `hcidump --raw | beacon2mqtt decode` is.
    static func decodeStdin(_ file: String, _ arguments: [String] = []) throws -> (code: Int32?, output: String) {
        let log = NSTemporaryDirectory() + "b2m-decode-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let command = ([PackagePaths.binary, "decode"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let shell = try ChildProcess("/bin/sh", ["-c", "\(command) < '\(file)'"], output: log)
        let code = shell.wait(timeout: 20)
        return (code, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    @Test func truncatedAdvertisingDataExits65WithItsOffsetOnStderr() throws {
        // A length byte of 0x1a (26) with only 7 bytes after it: the structure at offset 0 runs past the end.
        let run = CapturedRun(["decode", "--ad", "1aff4c000215e2c5"])
        #expect(run.code == .dataError)
        #expect(run.stderr.contains("input 1:"), "\(run.stderr)")
        #expect(run.stderr.contains("offset 0"), "\(run.stderr)")
        #expect(try Self.objects(run.stdout).first?["ad_truncated_at"] as? Int == 0)
    }

    @Test func anEmptyArgumentIsAUsageError() {
        #expect(CapturedRun(["decode", ""]).code == .usage)
        #expect(CapturedRun(["decode", "--ad", " "]).code == .usage)
    }

    @Test func unquotedSpacedHexIsOnePacket() throws {
        var bytes: [String] = []
        var hex = Substring(Self.iBeaconEvent)
        while !hex.isEmpty {
            bytes.append(String(hex.prefix(2)))
            hex = hex.dropFirst(2)
        }
        let run = CapturedRun(["decode"] + bytes)
        #expect(run.code == .success, "\(run.stderr)")
        let reports = try Self.objects(run.stdout)
        #expect(reports.count == 1)
        #expect((reports.first?["beacons"] as? [[String: Any]])?.first?["major"] as? Int == 100)
    }

    @Test func realHcidumpRawOutputOnStandardInputDecodes() throws {
        let run = try Self.decodeStdin(Self.text.appendingPathComponent("hcidump-raw-lescan.txt").path)
        #expect(run.code == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 1, "\(run.output)")
        let report = try #require(try Self.objects(String(lines.first ?? "")).first)
        #expect(report["address"] as? String == "ef:b0:0e:62:ca:1f")
        #expect(report["rssi"] as? Int == -76)
    }

    @Test func theSharedHcidumpCaptureDecodesAsSevenReports() throws {
        let path = PackagePaths.captures.appendingPathComponent("goodystone-estimote-eddystone_hcidump-raw.txt").path
        let run = try Self.decodeStdin(path)
        #expect(run.code == 0, "\(run.output)")
        let reports = try Self.objects(run.output)
        #expect(reports.count == 7)
        let types = reports.compactMap { ($0["beacons"] as? [[String: Any]])?.first?["type"] as? String }
        #expect(types.filter { $0 == "eddystone_uid" }.count == 2, "\(types)")
        // Pasted as one argument, the same text gives the same reports.
        let pasted = CapturedRun(["decode", try String(contentsOfFile: path, encoding: .utf8)])
        #expect(pasted.code == .success)
        #expect(pasted.stdout == run.output)
    }

    @Test func btmonTextSaysHowToGetBytesInsteadOfNotHex() throws {
        let run = try Self.decodeStdin(Self.text.appendingPathComponent("btmon-le-scan.txt").path)
        #expect(run.code == 65)
        #expect(!run.output.contains("not hex"), "\(run.output)")
        #expect(run.output.contains("btmon -w"), "\(run.output)")
        #expect(run.output.contains("replay"), "\(run.output)")
    }
}
