import BeaconCore
import Glibc
import MQTTTransport
import MessageContract
import Platform
import Runtime
import Synchronization
import Vocabulary

/// A short MQTT session for `beacon2mqtt config` and `status`: subscribes to `patterns` on connect, collects the
/// retained messages the broker sends and every live one after them, and publishes retained
/// layers with an acknowledgement. Every wait is on the monotonic clock.
final class BrokerClientSession: Sendable {
    private struct Heard: Sendable {
        var subscriptions = 0
        var retained: [String: String] = [:]
        var live: [(topic: String, payload: String)] = []
        var acknowledged: Set<Int32> = []
        var changes = 0
        var lastChange = ContinuousClock.now

        mutating func changed() {
            changes += 1
            lastChange = .now
        }
    }

    /// The client, for its own callbacks (they subscribe on connect).
    private final class Slot: Sendable {
        let client = Mutex<MosquittoClient?>(nil)
    }

    private let heard = WaitableState(Heard())
    private let slot = Slot()
    private let patterns: [String]
    private let client: MosquittoClient

    init(options: MQTTConnectionOptions, patterns: [String]) {
        self.patterns = patterns
        let heard = self.heard
        let slot = self.slot
        client = MosquittoClient(options: options, logger: Logger(level: .critical) { _ in }) { event in
            switch event {
            case .connected:
                let c = slot.client.withLock { $0 }
                for pattern in patterns { _ = c?.subscribe(pattern, qos: 1) }
            case .subscribed:
                heard.withLock { h in
                    h.subscriptions += 1
                    h.changed()
                }
            case .published(_, let mid):
                heard.withLock { h in
                    h.acknowledged.insert(mid)
                    h.changed()
                }
            case .message(let topic, let payload, _, let retained):
                let text = String(decoding: payload, as: UTF8.self)
                heard.withLock { h in
                    if retained, h.live.isEmpty { h.retained[topic] = text } else { h.live.append((topic, text)) }
                    h.changed()
                }
            default:
                break
            }
        }
        slot.client.withLock { $0 = client }
    }

    var lastFailure: String? { client.lastFailure }

    /// The broker connected to (or tried last).
    var endpoint: String { client.endpoint }

    /// Every broker `connect` tries, in order: `mqtt.host`, then `mqtt.failover`.
    static func brokers(_ options: MQTTConnectionOptions) -> String {
        options.brokers.map { options.endpoint(of: $0) }.joined(separator: ", ")
    }

    func connect(by deadline: ContinuousClock.Instant) -> Bool {
        client.start()
        return client.waitForFirstAttempt(timeout: TimeSpan(deadline - .now)) && client.isConnected
    }

    func stop() { client.stop(timeout: .seconds(1)) }

    /// The retained messages: complete 300 ms after the last SUBACK or retained message.
    func retained(by deadline: ContinuousClock.Instant) -> [String: String] {
        var h = heard.withLock { $0 }
        while ContinuousClock.now < deadline {
            let subscribed = h.subscriptions >= patterns.count
            let quietEnd = subscribed ? min(h.lastChange + .milliseconds(300), deadline) : deadline
            let seen = h.changes
            guard
                heard.wait(
                    for: quietEnd - .now,
                    for: {
                        h = $0
                        return $0.changes != seen
                    })
            else { break }
        }
        return heard.withLock { $0.retained }
    }

    /// Publishes `payload` retained at QoS 1 and waits for the broker's acknowledgement.
    func publish(_ topic: String, payload: String) -> Bool {
        guard case .sent(let mid) = client.publish(topic: topic, payload: Array(payload.utf8), qos: 1, retain: true)
        else { return false }
        return heard.wait(for: .seconds(5)) { $0.acknowledged.contains(mid) }
    }

    /// The live messages (those after the retained ones) once `done` says they are enough, or at `deadline`.
    func live(
        by deadline: ContinuousClock.Instant, until done: ([(topic: String, payload: String)]) -> Bool
    )
        -> [(topic: String, payload: String)]
    {
        var live: [(topic: String, payload: String)] = []
        _ = heard.wait(for: deadline - .now) { h in
            live = h.live
            return done(live)
        }
        return heard.withLock { $0.live }
    }
}
