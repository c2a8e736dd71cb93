import Foundation
import MessageContract
import Testing
import Vocabulary

@testable import IntegrationSupport

/// Gateways whose clocks are off, through mosquitto with real processes: the shipped floor plan
/// (etc/floor-plan.yaml) walked by three `run --floor-plan --as-gateway` processes and decided by
/// `locate`, once with every clock right and once for each skew of gateway B (the test-only
/// BEACON2MQTT_TEST_WALL_STEPS `0=<s>` sets B's wall clock off from its start; its radio still hears
/// the walk on true time). All four sites run at once, each under its own base topic.
extension ChaosTests {
    /// Gateway B's clock: 5 s ahead, a minute behind, a year behind (a board without an RTC, NTP failed).
    static let skews: [Int64] = [5, -60, -365 * 86_400]

    @Test func aSkewedGatewayIsCorrectedAndFlagged() throws {
        let broker = try MosquittoBroker()
        let witness = try TestSubscriber(port: broker.port, pattern: "#")
        defer { witness.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skew-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Walk from 4 s after the start: hall 15 s, office from 25 s, lab from 50 s, office from 75 s.
        let start = (Date().timeIntervalSince1970 + 4).rounded(.up)
        var processes: [ChildProcess] = []
        let sites: [(base: String, skew: Int64)] = [("right", 0)] + Self.skews.map { ("skew\($0)", $0) }
        for site in sites {
            processes += try Self.floorPlanSite(
                site.base, in: directory, port: broker.port, start: start,
                environment: { gateway in
                    guard gateway == "B", site.skew != 0 else { return nil }
                    var environment = ProcessInfo.processInfo.environment
                    environment["BEACON2MQTT_TEST_WALL_STEPS"] = "0=\(site.skew)"
                    return environment
                })
        }
        // Up to the lab and back into the office (83 s of the walk).
        Thread.sleep(forTimeInterval: start + 87 - Date().timeIntervalSince1970)
        for p in processes { p.signal(SIGTERM) }
        for p in processes { #expect(p.wait(timeout: 20) == 0) }

        let messages = witness.messages
        /// The locator's location events of a site: (seconds into the walk, room).
        func rooms(_ base: String) -> [(Double, String)] {
            messages.filter {
                $0.topic.hasPrefix(base + "/") && $0.topic.hasSuffix("/event")
                    && $0.topic.split(separator: "/").count == 5
            }
            .compactMap { m in
                guard let room = CampusBridgeTests.field("room", m.payload),
                    let at = CampusBridgeTests.field("timestamp", m.payload).flatMap(
                        RetainedAttributes.timestamp(rfc3339:))
                else { return nil }
                return (Double(at.microseconds) / 1e6 - start, room)
            }
        }
        /// The last clock report on a site's gateway.
        func clock(_ base: String, _ gateway: String) -> (state: String, offset: Double)? {
            guard let m = messages.last(where: { $0.topic == "\(base)/gateways/\(gateway)/clock" }),
                let state = CampusBridgeTests.field("state", m.payload),
                let o = try? JSONSerialization.jsonObject(with: Data(m.payload.utf8)) as? [String: Any],
                let offset = o["offset"] as? Double
            else { return nil }
            return (state, offset)
        }
        let reference = rooms("right")
        #expect(reference.map(\.1) == ["hall", "office", "lab", "office"], "\(reference)")
        #expect(["A", "B", "C"].allSatisfy { clock("right", $0)?.state == "ok" })
        for skew in Self.skews {
            let base = "skew\(skew)"
            let decided = rooms(base)
            let apart = zip(decided, reference).map { abs($0.0 - $1.0) }.max() ?? .infinity
            let b = clock(base, "B")
            Self.report(
                "chaos skewed clock, gateway B \(skew > 0 ? "+" : "")\(skew) s: rooms \(decided.map(\.1).joined(separator: " ")) "
                    + "(right clocks: \(reference.map(\.1).joined(separator: " "))), hand-overs at most "
                    + "\(String(format: "%.1f", apart)) s from the right clocks'; B flagged \(b?.state ?? "never") "
                    + "offset \(b.map { String(format: "%.3f", $0.offset) } ?? "-") s; A \(clock(base, "A")?.state ?? "-"), C \(clock(base, "C")?.state ?? "-")"
            )
            #expect(decided.map(\.1) == reference.map(\.1), "\(base): \(decided) against \(reference)")
            #expect(apart <= 3, "\(base): \(decided) against \(reference)")
            #expect(b?.state == (skew > 0 ? "ahead" : "behind"), "\(base): \(String(describing: b))")
            #expect(b.map { abs($0.offset - Double(skew)) < 1 } == true, "\(base): \(String(describing: b))")
            #expect(clock(base, "A")?.state == "ok" && clock(base, "C")?.state == "ok")
        }
    }
}
