import AgentCore
import BeaconCore
import BeaconWire
import Dispatch
import Foundation
import Platform
import Synchronization
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import MQTTTransport
@testable import Runtime

/// On plain TCP the network thread reads what the broker's socket holds in one pass and hands the
/// pass's events to the loop's queue together (issue #18: at a locator's start-up every message in
/// cost a lock and a wake-up of the loop thread). Against a real mosquitto: the subscriber's
/// consumer is held inside its first message while a burst piles up in the socket; once let go,
/// the burst reaches the `AgentEventQueue` in a few hand-overs (one per packet before), in order.
@Suite(.serialized) struct MosquittoReadBurstTests {
    /// Holds the consumer (on the network thread) inside the first batch with a message, once armed.
    final class Hold: Sendable {
        let armed = Atomic<Bool>(false)
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func pass(_ events: [MosquittoClient.Event]) {
            guard events.contains(where: { if case .message = $0 { true } else { false } }),
                armed.exchange(false, ordering: .acquiringAndReleasing)
            else { return }
            held.signal()
            release.wait()
        }
    }

    /// A subscriber whose events go to `queue` as `LocateService` and `Agent` post them.
    static func subscriber(port: Int, queue: AgentEventQueue, hold: Hold, qos: Int) throws -> MosquittoClient {
        var options = MQTTConnectionOptions(
            host: "127.0.0.1", port: port, clientID: "burst-\(UUID().uuidString.prefix(8))", statusTopic: "status",
            reconnectMin: .milliseconds(200), reconnectMax: .seconds(1))
        options.announcesAvailability = false
        let client = MosquittoClient(options: options, logger: Logger(level: .critical) { _ in }) { events in
            hold.pass(events)
            queue.post(contentsOf: events.lazy.map { .mqtt($0) })
        }
        client.start()
        #expect(client.waitForFirstAttempt(timeout: .seconds(10)))
        let mid = try #require(client.subscribe("burst/+", qos: qos))
        let deadline = MonotonicClock.now() + .seconds(10)
        while let event = queue.take(includeSource: false, until: deadline) {
            if case .mqtt(.subscribed(_, mid)) = event { return client }
        }
        throw TestFailure("no SUBACK")
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The payloads of the first `count` messages taken from `queue` (nil on a timeout).
    static func messages(_ count: Int, from queue: AgentEventQueue) -> [String]? {
        var payloads: [String] = []
        let deadline = MonotonicClock.now() + .seconds(10)
        while payloads.count < count {
            guard let event = queue.take(includeSource: false, until: deadline) else { return nil }
            if case .mqtt(.message(_, let payload, _, _)) = event {
                payloads.append(String(decoding: payload, as: UTF8.self))
            }
        }
        return payloads
    }

    /// Publishes message 0, waits until the subscriber's consumer holds it, publishes 1...`burst`
    /// behind it, lets go, and returns the payloads in the order taken and the hand-overs they took.
    static func burst(_ burst: Int, qos: Int) throws -> (payloads: [String]?, handOvers: Int) {
        // QoS 1 messages to the held subscriber are not held back by the broker's window (20).
        let broker = try MosquittoBroker(settings: ["max_inflight_messages 1000"])
        defer { broker.stop() }
        let queue = AgentEventQueue()
        let hold = Hold()
        let subscriber = try subscriber(port: broker.port, queue: queue, hold: hold, qos: qos)
        defer { subscriber.stop(timeout: .milliseconds(500)) }
        let (publisher, _) = ClientEvents.client(port: broker.port) {
            $0.announcesAvailability = false
            $0.inFlightWindow = 1000
        }
        publisher.start()
        defer { publisher.stop(timeout: .milliseconds(500)) }
        #expect(publisher.waitForFirstAttempt(timeout: .seconds(10)))
        hold.armed.store(true, ordering: .releasing)
        _ = publisher.publish(topic: "burst/m", payload: Array("0".utf8), qos: qos, retain: false)
        #expect(hold.held.wait(timeout: .now() + 10) == .success)
        for i in 1...burst {
            _ = publisher.publish(topic: "burst/m", payload: Array("\(i)".utf8), qos: qos, retain: false)
        }
        Thread.sleep(forTimeInterval: 0.5)  // the broker forwards them into the held subscriber's socket
        let before = queue.controlHandOvers
        hold.release.signal()
        let payloads = messages(burst + 1, from: queue)
        return (payloads, queue.controlHandOvers - before)
    }

    @Test func aBurstFromTheBrokerReachesTheQueueInAFewHandOversInOrder() throws {
        let (payloads, handOvers) = try Self.burst(200, qos: 0)
        #expect(payloads == (0...200).map(String.init))
        // The held pass, then the burst: one pass reads up to `readBurst` packets (201 before).
        #expect(handOvers <= 4, "\(handOvers) hand-overs for 201 messages")
    }

    /// At QoS 1 the subscriber queues a PUBACK for each message (written between its reads), and
    /// libmosquitto's wake-up byte for each into its socketpair fails once that is full (a few
    /// hundred), leaving EAGAIN in errno after every read: the pass still reads on while the socket
    /// holds packets.
    @Test func aQoS1BurstIsAcknowledgedAndHandedOverInAFewPasses() throws {
        let (payloads, handOvers) = try Self.burst(600, qos: 1)
        #expect(payloads == (0...600).map(String.init))
        #expect(handOvers <= 8, "\(handOvers) hand-overs for 601 messages")
    }
}
