import Foundation
import Testing

@testable import IntegrationSupport

/// `make test-brokers` (B2M_BROKERS=1): two independent mosquitto brokers, no bridge, the second in
/// `mqtt.failover`. The agent replays the real capture while each broker in turn is SIGKILLed and
/// started again: every enter/exit must reach at least one of them, and the retained state the agent
/// republishes must be on the broker it lands on (docs/reliability.md, "Failover").
@Suite(
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["B2M_BROKERS"] != nil, "two brokers: make test-brokers"))
struct FailoverTests {
    @Test func theAgentFailsOverBetweenTwoBrokersAndLosesNoEvent() throws {
        let first = try MosquittoBroker()
        let second = try MosquittoBroker()
        let witnesses = try [first, second].map {
            try TestSubscriber(port: $0.port, pattern: "beacons/#", clientID: "failover-witness-\($0.port)")
        }
        defer { for w in witnesses { w.stop() } }
        let workspace = try Workspace(
            port: first.port, gateway: "chaos",
            extra: "  failover: [\"127.0.0.1:\(second.port)\"]\n" + ChaosTests.monitoring)
        let expected = try ChaosTests.expectedEvents(config: workspace.config)
        #expect(expected.count >= 10)
        // 10× the capture's speed: about 20 s. The first broker dies at 5 s and is back at 9 s; the
        // second dies at 12 s, and the agent must go back to the first.
        let status = Workspace.status("chaos")
        let agent = try workspace.start(["--replay", ChaosTests.capture, "--speed", "10"])
        defer { agent.signal(SIGKILL) }
        #expect(witnesses[0].waitFor { $0.contains { $0.topic == status && $0.payload == "online" } })
        Thread.sleep(forTimeInterval: 5)
        var killed = Date().timeIntervalSince1970
        first.kill()
        let toSecond = Self.online(witnesses[1], status: status, after: killed).map { $0 - killed }
        Thread.sleep(forTimeInterval: max(killed + 4 - Date().timeIntervalSince1970, 0))
        try first.start()
        // The agent stays on the second broker while it works.
        Thread.sleep(forTimeInterval: 3)
        let stayed = !workspace.logText.split(separator: "\n").contains {
            $0.contains("reconnected to broker") && $0.contains(":\(first.port)")
        }
        // A fresh subscriber of the second broker finds the agent's retained states there.
        let fresh = try TestSubscriber(port: second.port, pattern: "beacons/#")
        _ = fresh.waitFor(timeout: 3) { m in m.contains { $0.topic.hasSuffix("/state") && $0.retained } }
        let retainedStates = fresh.messages.filter { $0.topic.hasSuffix("/state") && $0.retained }.count
        let retainedOnline = fresh.messages.contains { $0.topic == status && $0.payload == "online" && $0.retained }
        fresh.stop()
        killed = Date().timeIntervalSince1970
        second.kill()
        let backToFirst = Self.online(witnesses[0], status: status, after: killed).map { $0 - killed }
        #expect(agent.wait(timeout: 120) == 0, "\(workspace.logText.suffix(2000))")
        try second.start()

        // Every event reached one broker at least (each broker's log of what it received), and the
        // witnesses together saw each one.
        var reached = ChaosTests.reachedBroker(first)
        for (topic, n) in ChaosTests.reachedBroker(second) { reached[topic, default: 0] += n }
        var want: [String: Int] = [:]
        for e in expected { want[e.topic, default: 0] += 1 }
        let missing = want.reduce(0) { $0 + max($1.value - (reached[$1.key] ?? 0), 0) }
        let seen = Set(witnesses.flatMap { ChaosTests.events($0) })
        let lost = expected.filter { !seen.contains($0) }.count
        let seconds = { (t: Double?) in t.map { String(format: "%.1f s", $0) } ?? "never" }
        ChaosTests.report(
            "brokers failover, two mosquittos: \(expected.count) events expected, \(missing) missing from both brokers' "
                + "logs, \(lost) seen by neither witness; online on the second \(seconds(toSecond)) after the first's "
                + "SIGKILL, back on the first \(seconds(backToFirst)) after the second's; stayed on the second while it "
                + "worked \(stayed); on the second: \(retainedStates) retained states, retained online \(retainedOnline)"
        )
        #expect(missing == 0, "\(reached) against \(want)")
        #expect(lost == 0, "\(expected.filter { !seen.contains($0) })")
        #expect(toSecond != nil && backToFirst != nil, "\(workspace.logText.suffix(2000))")
        #expect(stayed, "\(workspace.logText.suffix(2000))")
        #expect(retainedOnline && retainedStates > 0)
    }

    /// When `status` said `online` on `witness` after `moment` (seconds since the epoch), within 30 s.
    static func online(_ witness: TestSubscriber, status: String, after moment: Double) -> Double? {
        func arrival() -> Double? {
            witness.timedMessages.first {
                $0.message.topic == status && $0.message.payload == "online" && $0.arrived > moment
            }?
            .arrived
        }
        _ = waitUntil(timeout: 30) { arrival() != nil }
        return arrival()
    }
}
