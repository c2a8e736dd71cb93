import Foundation
import Testing

@testable import Gateway

/// `status` against a real mosquitto started by the test on a free loopback port.
@Suite struct StatusCommandTests {
    static var hasMosquitto: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_pub")
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(ok)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func config(port: Int) throws -> String {
        let path = NSTemporaryDirectory() + "b2m-status-\(UUID().uuidString).yaml"
        try "gateway:\n  id: viewer\nmqtt:\n  host: 127.0.0.1\n  port: \(port)\n  base_topic: site/a\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A private broker; killed when the test ends (SIGKILL: a child can inherit a mask that blocks SIGTERM).
    final class Broker {
        let process = Process()
        let port: Int
        let confPath: String

        init() throws {
            port = try StatusCommandTests.freePort()
            confPath = NSTemporaryDirectory() + "b2m-mosquitto-\(port).conf"
            try "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n".write(
                toFile: confPath, atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
            process.arguments = ["-c", confPath]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Ready when it accepts a connection (bounded retries, not a timing assertion).
            for _ in 0..<100 where !accepts() { usleep(50_000) }
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: confPath)
        }

        func accepts() -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }

        /// `mosquitto_pub -r`: a retained message, as a gateway leaves it.
        func retain(_ topic: String, _ payload: String) throws {
            let pub = Process()
            pub.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
            pub.arguments = ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-r", "-t", topic, "-m", payload]
            try pub.run()
            pub.waitUntilExit()
            try #require(pub.terminationStatus == 0)
        }
    }

    @Test(.enabled(if: hasMosquitto)) func printsOneRowPerGatewayFromRetainedStatusAndStats() throws {
        let broker = try Broker()
        try broker.retain("site/a/gateways/hall/status", "online")
        try broker.retain(
            "site/a/gateways/hall/stats",
            #"{"uptime":3725,"reports":2210,"reports_per_s":18.4,"beacons_tracked":2,"messages_published":57,"queued":0,"dropped":3,"malformed":1,"reconnects":1,"timestamp":"2026-11-29T20:54:40.547Z"}"#
        )
        try broker.retain("site/a/gateways/attic/status", "offline")
        try broker.retain("site/b/gateways/elsewhere/status", "online")  // another base: not ours
        let config = try Self.config(port: broker.port)
        defer { try? FileManager.default.removeItem(atPath: config) }

        let run = CapturedRun(["status", "--config", config])
        #expect(run.code == .success, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(run.stdout.hasPrefix("Gateways on mqtt://127.0.0.1:\(broker.port): 2\n"))
        #expect(
            lines.contains([
                "GATEWAY", "STATUS", "UPTIME", "REPORTS/S", "BEACONS", "PUBLISHED", "QUEUED", "DROPPED", "MALFORMED",
                "RECONNECTS", "STATS", "AGE",
            ]))
        let hall = try #require(lines.first { $0.first == "hall" })
        #expect(Array(hall.prefix(10)) == ["hall", "online", "1h2m", "18.4", "2", "57", "0", "3", "1", "1"])
        let attic = try #require(lines.first { $0.first == "attic" })
        #expect(attic == ["attic", "offline", "-", "-", "-", "-", "-", "-", "-", "-", "-"])
        #expect(!run.stdout.contains("elsewhere"))
        // Sorted by gateway id, and the viewer left nothing retained of its own.
        #expect(try #require(lines.firstIndex { $0.first == "attic" }) < lines.firstIndex { $0.first == "hall" }!)
        #expect(!run.stdout.contains("viewer"))
        let again = CapturedRun(["status", "--config", config])
        #expect(again.stdout.hasPrefix("Gateways on mqtt://127.0.0.1:\(broker.port): 2\n"))
    }

    @Test func anUnreachableBrokerExits69WithTheReason() throws {
        let config = try Self.config(port: try Self.freePort())
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = CapturedRun(["status", "--config", config, "--timeout", "2"])
        #expect(run.code == .unavailable)
        #expect(run.stderr.contains("cannot reach the broker at mqtt://127.0.0.1:"))
    }

    @Test func aBadConfigExits78() {
        #expect(CapturedRun(["status", "--config", "/nonexistent.yaml"]).code == .config)
    }

    @Test func uptimeReadsAsDaysHoursMinutes() {
        #expect(StatusCommand.duration(59) == "59s")
        #expect(StatusCommand.duration(61) == "1m1s")
        #expect(StatusCommand.duration(3725) == "1h2m")
        #expect(StatusCommand.duration(93784) == "1d2h3m")
    }

    @Test func statsAgeComesFromTheStatsTimestamp() {
        let rows = StatusCommand.rows(
            ["b/gateways/g/stats": #"{"uptime":1,"timestamp":"2026-01-01T00:00:00.000Z"}"#, "b/gateways/g/status": ""],
            baseTopic: "b")
        #expect(rows.count == 1 && rows.first?.status == nil)  // an empty retained payload is a cleared value
        let now = ISO8601DateFormatter().date(from: "2026-01-01T00:01:30Z")!
        #expect(StatusCommand.table(rows, broker: "x", now: now).contains(" 90s\n"))
    }
}
