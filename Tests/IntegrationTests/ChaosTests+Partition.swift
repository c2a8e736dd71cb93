import Foundation
import Testing

@testable import IntegrationSupport

/// A gateway cut off the broker while the beacon walks on: the shipped floor plan walked by three
/// `run --floor-plan --as-gateway` processes and decided by `locate`, twice at once under their own
/// base topics — `whole`, every gateway connected, and `cut`, whose gateway C reaches the broker
/// through a `PartitionProxy` that drops everything for three minutes, from the beacon's rest in C's
/// lab, through a whole round of the walk and its second rest in the lab, until it is back in the office.
extension ChaosTests {
    /// Walk seconds (etc/floor-plan.yaml, a round of 100 s: lab 50–65 s, office 75–90 s, hall 100–115 s,
    /// office 125–140 s, lab 150–165 s, office 175–190 s, hall 200–215 s, office from 225 s).
    static let partition = (cut: 55.0, heal: 235.0, end: 243.0)

    @Test func aPartitionedGatewayDeliversItsHeldEventsAndMovesNoBeacon() throws {
        let broker = try MosquittoBroker()
        let proxy = try PartitionProxy(upstream: broker.port)
        defer { proxy.stop() }
        let witness = try TestSubscriber(port: broker.port, pattern: "#")
        defer { witness.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The processes start 36 s into the walk (the beacon resting in the office), 4 s from now.
        let start = (Date().timeIntervalSince1970 + 4).rounded(.up) - 40
        let gatewaySettings =
            "  keepalive: 5s\n  outbox_limit: 100\n  stats_interval: 5s\n  reconnect_min: 200ms\n  reconnect_max: 1s\n"
            + "monitoring:\n  exit_timeout: 3s\n"
        var processes: [ChildProcess] = []
        for base in ["whole", "cut"] {
            processes += try Self.floorPlanSite(
                base, in: directory, port: broker.port, start: start,
                gatewayPort: { base == "cut" && $0 == "C" ? proxy.port : nil }, gatewaySettings: gatewaySettings)
        }
        func sleep(untilWalk t: Double) {
            Thread.sleep(forTimeInterval: max(start + t - Date().timeIntervalSince1970, 0))
        }
        sleep(untilWalk: Self.partition.cut)
        proxy.cut()
        sleep(untilWalk: Self.partition.heal)
        proxy.heal()
        sleep(untilWalk: Self.partition.end)
        for p in processes { p.signal(SIGTERM) }
        for p in processes { #expect(p.wait(timeout: 20) == 0) }
        let cutLog = (try? String(contentsOf: directory.appendingPathComponent("cut-C.log"), encoding: .utf8)) ?? ""

        let timed = witness.timedMessages
        let cut = start + Self.partition.cut
        let heal = start + Self.partition.heal
        func stamp(_ payload: String) -> Double? {
            Self.seconds(rfc3339: CampusBridgeTests.field("timestamp", payload))
        }
        /// A site's location events (5 topic levels; a gateway's have one more): stamp, arrival, room or "unknown".
        func rooms(_ base: String) -> [(at: Double, arrived: Double, room: String)] {
            timed.compactMap { m, arrived in
                guard m.topic.hasPrefix(base + "/"), m.topic.hasSuffix("/event"),
                    m.topic.split(separator: "/").count == 5, let at = stamp(m.payload)
                else { return nil }
                return (at, arrived, CampusBridgeTests.field("room", m.payload) ?? "unknown")
            }
        }
        /// Gateway C's enter/exit events stamped within the partition: kind, stamp, arrival.
        func heldEvents(_ base: String) -> [(kind: String, at: Double, arrived: Double)] {
            timed.compactMap { m, arrived in
                guard m.topic.hasPrefix(base + "/"), m.topic.hasSuffix("/C/event"),
                    let kind = CampusBridgeTests.field("event", m.payload),
                    let at = stamp(m.payload), at >= cut, at < heal
                else { return nil }
                return (kind, at, arrived)
            }
        }
        func json(_ topic: String) -> [[String: Any]] {
            timed.compactMap { m, _ in
                m.topic == topic
                    ? try? JSONSerialization.jsonObject(with: Data(m.payload.utf8)) as? [String: Any] : nil
            }
        }
        func describe(_ r: [(at: Double, arrived: Double, room: String)]) -> String {
            r.map { "\($0.room)@\(Int(($0.at - start).rounded()))" }.joined(separator: " ")
        }

        let reference = rooms("whole")
        let decided = rooms("cut")
        let expectedHeld = heldEvents("whole")
        let held = heldEvents("cut")
        let heldApart = zip(held, expectedHeld).map { abs($0.at - $1.at) }.max() ?? 0
        let heldInOrder = zip(held, held.dropFirst()).allSatisfy { $0.at <= $1.at }
        let stats = json("cut/gateways/C/stats")
        let maxQueued = stats.compactMap { $0["queued"] as? Int }.max() ?? -1
        let dropped = stats.last?["dropped"] as? Int ?? -1
        let clock = json("cut/gateways/C/clock").last
        let statuses = timed.filter { $0.message.topic == "cut/gateways/C/status" }
        let wentOffline = statuses.contains { $0.message.payload == "offline" && $0.arrived > cut && $0.arrived < heal }
        let backOnline = statuses.contains {
            $0.message.payload == "online" && $0.arrived > heal && $0.arrived < start + Self.partition.end
        }
        // After the heal: what the cut site decided, against what the whole site did. A tick's
        // location is published `locator.settle` (1 s) after the tick, so one decided live in the
        // last second before the heal arrives after it; one the backlog re-decided arrives long
        // after its stamp.
        let afterHeal = decided.filter { $0.at >= heal }
        let referenceAfterHeal = reference.filter { $0.at >= heal }
        let redecided = decided.filter { $0.arrived > heal && $0.at < heal && $0.arrived - $0.at > 2 }
        let lateReadings = clock?["late_readings"] as? Int ?? -1
        Self.report(
            "chaos partition, gateway C cut \(Int(Self.partition.heal - Self.partition.cut)) s (walk \(Int(Self.partition.cut))–\(Int(Self.partition.heal)) s): "
                + "\(held.count) held enter/exit delivered (whole site: \(expectedHeld.count)), "
                + "\(held.filter { $0.arrived > heal }.count) after the heal, in order \(heldInOrder), stamps at most "
                + "\(String(format: "%.2f", heldApart)) s from the whole site's; outbox at most \(maxQueued) queued of 100, "
                + "\(dropped) dropped; broker offline \(wentOffline), online again \(backOnline); C's clock "
                + "\(clock?["state"] as? String ?? "never"), \(lateReadings) late readings skipped; rooms \(describe(decided)) "
                + "(whole: \(describe(reference))); after the heal \(afterHeal.count) location events "
                + "(whole: \(referenceAfterHeal.count)), \(redecided.count) stamped before it and published late")

        #expect(
            reference.map(\.room).contains("lab"), "the whole site never placed the beacon in the lab: \(reference)")
        #expect(decided.filter { $0.at < cut }.map(\.room) == reference.filter { $0.at < cut }.map(\.room))
        // Held enter/exit: all of them, after the heal, in order, with the stamps a connected C gave them.
        #expect(!expectedHeld.isEmpty, "no enter/exit at C during the partition: nothing to hold")
        #expect(held.map(\.kind) == expectedHeld.map(\.kind), "\(held) against \(expectedHeld)")
        #expect(held.allSatisfy { $0.arrived > heal }, "\(held)")
        #expect(heldInOrder && heldApart <= 1, "\(held) against \(expectedHeld)")
        // The outbox stays within its bound and counts what it coalesced or dropped.
        #expect(maxQueued >= 0 && maxQueued <= 100, "\(stats)")
        #expect(dropped > 0, "\(stats)")
        #expect(cutLog.contains("disconnected from broker"), "\(cutLog.suffix(2000))")
        #expect(wentOffline && backOnline, "\(statuses.map { ($0.message.payload, $0.arrived - start) })")
        // The backlog is no clock behind, moves no beacon and re-decides nothing already published.
        #expect(clock?["state"] as? String == "ok", "\(String(describing: clock))")
        #expect(redecided.isEmpty, "\(describe(afterHeal))")
        // The lab during the cut only while the beacon is back in it (the whole site's lab, ±3 s), never on the
        // backlog, and after the heal what the connected site does: a room whose gateway is offline gives way
        // when the beacon walks on (docs/locator.md, "The belief engine").
        let labSpans = zip(reference, reference.dropFirst() + [(at: .infinity, arrived: .infinity, room: "")])
            .filter { $0.0.room == "lab" }.map { ($0.0.at - 3)...($0.1.at + 3) }
        let labElsewhere = decided.filter { d in
            d.at > cut && d.room == "lab" && !labSpans.contains { $0.contains(d.at) }
        }
        #expect(labElsewhere.isEmpty, "\(describe(decided)) against \(describe(reference))")
        #expect(
            afterHeal.map(\.room) == referenceAfterHeal.map(\.room),
            "\(describe(afterHeal)) against \(describe(referenceAfterHeal))")
        #expect(decided.last?.room == reference.last?.room, "\(describe(decided)) against \(describe(reference))")
    }
}
