import BeaconWire
import Foundation
import MQTTTransport
import Testing
import Vocabulary

@testable import IntegrationSupport

/// `make test-chaos` (B2M_CHAOS=1): the agent, a real mosquitto with persistence, and faults at
/// seeded random moments (B2M_CHAOS_SEED, default 17). Each test prints one `chaos …` line with what
/// was lost, duplicated or reordered, and appends it to .build/chaos-results.txt (docs/reliability.md).
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["B2M_CHAOS"] != nil, "faults through real processes: make test-chaos"))
struct ChaosTests {
    static let seed = UInt64(ProcessInfo.processInfo.environment["B2M_CHAOS_SEED"] ?? "") ?? 17
    static let capture = PackagePaths.captures.appendingPathComponent(
        "wangdalian-btsnooper_ext-adv_btsnoop_hci.log"
    ).path
    /// Exits after 1 s of silence: the real capture's beacons come and go, so its 205 s give 14 events.
    static let monitoring = "monitoring:\n  exit_timeout: 1s\n"

    /// A seeded source of the fault moments (SplitMix64).
    struct Moments {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// Uniform in lo…hi seconds.
        mutating func seconds(_ lo: Double, _ hi: Double) -> Double {
            lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
        }
    }

    /// An enter/exit as the witness saw it: topic, kind and the event's own timestamp.
    struct Event: Hashable, CustomStringConvertible {
        var topic: String
        var kind: String
        var timestamp: String
        var description: String { "\(topic) \(kind) \(timestamp)" }

        init?(topic: String, payload: String) {
            guard topic.hasSuffix("/event"),
                let o = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
                let kind = o["event"] as? String, let stamp = o["timestamp"] as? String
            else { return nil }
            self.topic = topic
            self.kind = kind
            timestamp = stamp
        }
    }

    /// Lost, duplicated and reordered events of `received` against `expected` (per topic).
    struct Tally: CustomStringConvertible {
        var expected = 0
        var received = 0
        var lost = 0
        var duplicated = 0
        var reordered = 0
        var description: String {
            "\(expected) expected, \(received) received, \(lost) lost, \(duplicated) duplicated, \(reordered) reordered"
        }

        init(expected: [Event], received: [Event]) {
            self.expected = expected.count
            self.received = received.count
            for topic in Set(expected.map(\.topic)).union(received.map(\.topic)) {
                let want = expected.filter { $0.topic == topic }
                var got: [Event] = []
                for e in received where e.topic == topic {
                    if got.contains(e) { duplicated += 1 } else { got.append(e) }
                }
                lost += want.filter { !got.contains($0) }.count
                let common = got.filter { want.contains($0) }
                if common != want.filter({ got.contains($0) }) { reordered += 1 }
            }
        }
    }

    /// Without an expected list (a live simulation): every event must change its topic's state
    /// (enter after exit or first, exit after enter), so a lost transition shows as a repeat.
    struct Alternation: CustomStringConvertible {
        var events = 0
        var duplicated = 0
        var brokenTransitions: [String] = []
        var description: String {
            "\(events) events, \(duplicated) duplicated, \(brokenTransitions.count) out of order or lost"
        }

        init(_ received: [Event]) {
            var last: [String: Event] = [:]
            var seen = Set<Event>()
            for e in received {
                if !seen.insert(e).inserted {
                    duplicated += 1
                    continue
                }
                events += 1
                let previous = last[e.topic]
                if previous?.kind == e.kind || (previous == nil && e.kind != "enter") {
                    brokenTransitions.append("\(previous?.description ?? "none") → \(e)")
                }
                last[e.topic] = e
            }
        }
    }

    /// Event PUBLISHes the broker logged receiving from the agent (client id `beacon2mqtt-chaos`), per
    /// topic: what reached the broker, whatever a SIGKILL later cost the broker's own queues.
    static func reachedBroker(_ broker: MosquittoBroker) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in broker.logText.split(separator: "\n") where line.contains("Received PUBLISH from") {
            guard let open = line.firstIndex(of: "'"), let close = line[line.index(after: open)...].firstIndex(of: "'")
            else { continue }
            let topic = String(line[line.index(after: open)..<close])
            if topic.hasSuffix("/event") { counts[topic, default: 0] += 1 }
        }
        return counts
    }

    /// Events missing from the broker's log (fewer PUBLISHes of a topic than expected events), and
    /// the extra ones (QoS 1 re-sends after a lost PUBACK).
    static func brokerTally(_ broker: MosquittoBroker, expected: [Event]) -> (missing: Int, extra: Int) {
        let reached = reachedBroker(broker)
        var want: [String: Int] = [:]
        for e in expected { want[e.topic, default: 0] += 1 }
        var missing = 0
        var extra = 0
        for topic in Set(want.keys).union(reached.keys) {
            let d = (reached[topic] ?? 0) - (want[topic] ?? 0)
            if d < 0 { missing -= d } else { extra += d }
        }
        return (missing, extra)
    }

    /// The broker's CONNACKs to `clientID` after its first connect, and how many said "session present".
    static func sessionsResumed(_ broker: MosquittoBroker, clientID: String) -> (reconnects: Int, present: Int) {
        let acks = broker.logText.split(separator: "\n").filter { $0.contains("Sending CONNACK to \(clientID) (") }
            .dropFirst()
        return (acks.count, acks.filter { $0.contains("Sending CONNACK to \(clientID) (1,") }.count)
    }

    static func report(_ line: String) {
        print(line)
        let path = PackagePaths.root.appendingPathComponent(".build/chaos-results.txt").path
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        if let handle = FileHandle(forWritingAtPath: path) {
            handle.seekToEndOfFile()
            handle.write(Data((line + "\n").utf8))
            handle.closeFile()
        }
    }

    static func events(_ subscriber: TestSubscriber) -> [Event] {
        subscriber.messages.compactMap { Event(topic: $0.topic, payload: $0.payload) }
    }

    /// What `replay` says the capture makes, with the same configuration: the events, in order.
    static func expectedEvents(config: String) throws -> [Event] {
        let out = NSTemporaryDirectory() + "b2m-chaos-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let replay = try ChildProcess(
            PackagePaths.binary, ["replay", capture, "--config", config, "--output", "jsonl"], output: out)
        #expect(replay.wait(timeout: 60) == 0)
        return try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let topic = o["topic"] as? String, let payload = o["payload"] as? [String: Any]
            else { return nil }
            let text = String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self)
            return Event(topic: topic, payload: text)
        }
    }

    /// The broker SIGKILLed 20 times while `run --replay` (10× capture speed, ~20 s) publishes:
    /// every event of the capture must reach a persistent-session witness, in order per topic.
    @Test func brokerKilledTwentyTimesDuringAReplayLosesNoEvent() throws {
        let broker = try MosquittoBroker(persistence: true)
        let witness = try TestSubscriber(port: broker.port, pattern: "beacons/#", clientID: "chaos-witness-replay")
        defer { witness.stop() }
        let workspace = try Workspace(port: broker.port, gateway: "chaos", extra: Self.monitoring)
        let expected = try Self.expectedEvents(config: workspace.config)
        #expect(expected.count >= 10)
        let agent = try workspace.start(["--replay", Self.capture, "--speed", "10"])
        var moments = Moments(state: Self.seed)
        var kills = 0
        while kills < 20, agent.isRunning {
            Thread.sleep(forTimeInterval: moments.seconds(0.2, 0.8))
            broker.kill()
            kills += 1
            Thread.sleep(forTimeInterval: moments.seconds(0.1, 0.6))
            try broker.start()
        }
        #expect(agent.wait(timeout: 120) == 0, "\(workspace.logText.suffix(2000))")
        _ = witness.waitFor(timeout: 20) { _ in Set(Self.events(witness)).count >= Set(expected).count }
        let tally = Tally(expected: expected, received: Self.events(witness))
        let atBroker = Self.brokerTally(broker, expected: expected)
        let resumed = Self.sessionsResumed(broker, clientID: "chaos-witness-replay")
        Self.report(
            "chaos broker-kill replay (seed \(Self.seed)): \(kills) SIGKILLs; broker log: \(atBroker.missing) missing, "
                + "\(atBroker.extra) re-sent; persistent subscriber: \(tally); its session resumed at "
                + "\(resumed.present) of \(resumed.reconnects) reconnects")
        #expect(kills == 20, "the replay ended after \(kills) kills")
        // The witness's session survived the restarts (mosquitto saved it): else it is a clean-session
        // subscriber in effect, and what it misses says nothing of the broker's persistence.
        #expect(resumed.reconnects > 0 && resumed.present == resumed.reconnects, "\(resumed)")
        // Every event reached the broker once at least; what the subscriber misses, the broker lost
        // in its SIGKILL (queued or not yet saved), after it had acknowledged it.
        #expect(atBroker.missing == 0, "\(atBroker)")
        #expect(tally.reordered == 0, "\(tally)")
    }

    /// The broker SIGKILLed 20 times during a simulation of 20 beacons: no transition is lost or
    /// out of order, and each beacon's retained state is its last event.
    @Test func brokerKilledTwentyTimesDuringASimulationKeepsEveryTransition() throws {
        let broker = try MosquittoBroker(persistence: true)
        let witness = try TestSubscriber(port: broker.port, pattern: "beacons/#", clientID: "chaos-witness-sim")
        defer { witness.stop() }
        let workspace = try Workspace(port: broker.port, gateway: "chaos", extra: Self.monitoring)
        let agent = try workspace.start(["--simulate", "--beacons", "20", "--seed", "\(Self.seed)"])
        var moments = Moments(state: Self.seed &+ 1)
        for _ in 0..<20 {
            Thread.sleep(forTimeInterval: moments.seconds(0.3, 1.0))
            broker.kill()
            Thread.sleep(forTimeInterval: moments.seconds(0.1, 0.6))
            try broker.start()
        }
        Thread.sleep(forTimeInterval: 2)
        agent.signal(SIGTERM)
        #expect(agent.wait(timeout: 30) == 0)
        Thread.sleep(forTimeInterval: 1)
        let received = Self.events(witness)
        let alternation = Alternation(received)
        let reached = Self.reachedBroker(broker).values.reduce(0, +)
        let resumed = Self.sessionsResumed(broker, clientID: "chaos-witness-sim")
        Self.report(
            "chaos broker-kill simulation (seed \(Self.seed)): 20 SIGKILLs; broker log: \(reached) event PUBLISHes; "
                + "persistent subscriber: \(alternation); its session resumed at \(resumed.present) of \(resumed.reconnects) reconnects"
        )
        #expect(resumed.reconnects > 0 && resumed.present == resumed.reconnects, "\(resumed)")
        #expect(alternation.events >= 20)
        #expect(reached >= alternation.events)
        // In order per topic: each topic's events arrive in the order they happened.
        var last: [String: String] = [:]
        var backwards = 0
        for e in received {
            if let previous = last[e.topic], previous > e.timestamp { backwards += 1 }
            last[e.topic] = max(last[e.topic] ?? "", e.timestamp)
        }
        #expect(backwards == 0, "\(backwards) events arrived after a later one of their topic")
    }

    /// The retained `state` of every beacon topic a fresh subscriber gets equals its last event.
    static func expectRetainedStatesMatchLastEvents(port: Int, witness: TestSubscriber) throws {
        var last: [String: String] = [:]
        for e in events(witness) { last[String(e.topic.dropLast("/event".count))] = e.kind }
        let reader = try TestSubscriber(port: port, pattern: "beacons/+/+/+/+/state")
        defer { reader.stop() }
        _ = reader.waitFor(timeout: 3) { $0.count >= last.count }
        var wrong: [String] = []
        for (subject, kind) in last {
            let state = reader.messages(on: subject + "/state").last?.payload
            if state != (kind == "enter" ? "inside" : "outside") {
                wrong.append("\(subject): \(state ?? "none") after \(kind)")
            }
        }
        report("chaos retained states: \(last.count) subjects, \(wrong.count) wrong")
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// The agent SIGKILLed and restarted 20 times (the broker stays up): each start restores the
    /// retained states, so no event repeats a state (no spurious enter/exit storm), and the retained
    /// states end as the last events say.
    @Test func agentKilledAndRestartedTwentyTimesMakesNoSpuriousEvents() throws {
        let broker = try MosquittoBroker(persistence: true)
        let witness = try TestSubscriber(port: broker.port, pattern: "beacons/#", clientID: "chaos-witness-agent")
        defer { witness.stop() }
        let workspace = try Workspace(port: broker.port, gateway: "chaos")
        var moments = Moments(state: Self.seed &+ 2)
        var restoredStarts = 0
        for round in 0..<20 {
            let agent = try workspace.start(["--simulate", "--beacons", "5", "--seed", "\(Self.seed)"])
            if waitUntil(
                timeout: 10, { workspace.logText.components(separatedBy: "restored retained states").count > round + 1 }
            ) {
                restoredStarts += 1
            }
            Thread.sleep(forTimeInterval: moments.seconds(0.5, 1.5))
            agent.signal(SIGKILL)
            #expect(agent.wait(timeout: 10) == 137)
        }
        let final = try workspace.start(["--simulate", "--beacons", "5", "--seed", "\(Self.seed)"])
        Thread.sleep(forTimeInterval: 2)
        final.signal(SIGTERM)
        #expect(final.wait(timeout: 20) == 0)
        Thread.sleep(forTimeInterval: 1)
        let alternation = Alternation(Self.events(witness))
        Self.report(
            "chaos agent-kill (seed \(Self.seed)): 20 SIGKILLs and restarts, \(restoredStarts) restored, \(alternation)"
        )
        #expect(restoredStarts == 20)
        #expect(alternation.brokenTransitions.isEmpty, "\(alternation.brokenTransitions.prefix(5))")
        try Self.expectRetainedStatesMatchLastEvents(port: broker.port, witness: witness)
    }

    /// The broker SIGSTOPped for 3× the keepalive (5 s): the agent notices the silent broker, keeps
    /// reconnecting, and once the broker runs again delivers what happened meanwhile.
    @Test func aStalledBrokerIsDetectedAndWhatHappenedMeanwhileIsDelivered() throws {
        let broker = try MosquittoBroker(persistence: true)
        let witness = try TestSubscriber(port: broker.port, pattern: "beacons/#", clientID: "chaos-witness-stall") {
            $0.keepalive = .seconds(60)
        }
        defer { witness.stop() }
        let workspace = try Workspace(
            port: broker.port, gateway: "chaos", extra: "  keepalive: 5s\n" + Self.monitoring)
        let agent = try workspace.start(["--replay", Self.capture, "--speed", "10"])
        defer { agent.signal(SIGKILL) }
        #expect(waitUntil(timeout: 10) { workspace.logText.contains("connected to broker") })
        let expected = try Self.expectedEvents(config: workspace.config)
        Thread.sleep(forTimeInterval: 2)
        let pid = try #require(broker.pid)
        kill(pid, SIGSTOP)
        Thread.sleep(forTimeInterval: 15)
        let noticed = workspace.logText.contains("disconnected from broker")
        kill(pid, SIGCONT)
        #expect(agent.wait(timeout: 60) == 0, "\(workspace.logText.suffix(2000))")
        _ = witness.waitFor(timeout: 20) { _ in Set(Self.events(witness)).count >= Set(expected).count }
        let tally = Tally(expected: expected, received: Self.events(witness))
        Self.report("chaos broker-stall 15 s, keepalive 5 s (seed \(Self.seed)): detected \(noticed), \(tally)")
        #expect(noticed, "\(workspace.logText)")
        #expect(tally.lost == 0 && tally.reordered == 0, "\(tally)")
    }
}
