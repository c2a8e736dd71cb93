import Foundation
import Synchronization

/// A subscriber that counts what the agent delivers: every message, and each enter/exit event with
/// its arrival time (for the report → enter latency). The client is a `BenchSubscriber`; its network
/// thread hands each message to `received`.
// Invariant for @unchecked Sendable: `subscriber` is set once in init and stopped by the owning
// thread; libmosquitto's network thread touches only `state` (a Mutex) and the immutable `keeping`.
final class MQTTTally: @unchecked Sendable {
    struct Counts: Sendable {
        var messages = 0
        var enters = 0
        var exits = 0
        var states = 0
        /// Arrival time (monotonic ns) of the first enter event per topic.
        var enterArrivals: [String: UInt64] = [:]
        var firstArrival: UInt64 = 0
        var lastArrival: UInt64 = 0
        /// Every message on a topic ending in one of `keeping`, with its arrival (monotonic ns).
        var kept: [(topic: String, payload: String, arrival: UInt64)] = []
    }

    private let state = Mutex(Counts())
    private let keeping: [String]
    private var subscriber: BenchSubscriber?

    var counts: Counts { state.withLock { $0 } }

    /// Subscribes to `topic` and `also` at QoS 1; keeps messages whose topic ends in one of `keeping`.
    init(port: Int, topic: String, also: [String] = [], keeping: [String] = []) throws(BenchFailure) {
        self.keeping = keeping
        subscriber = try BenchSubscriber(port: port, topics: ([topic] + also).map { ($0, 1) }, id: "tally") {
            [weak self] topic, payload, arrival in self?.received(topic, payload, at: arrival)
        }
    }

    private func received(_ topic: String, _ bytes: [UInt8], at now: UInt64) {
        let payload = String(decoding: bytes, as: UTF8.self)
        let keep = keeping.contains { topic.hasSuffix($0) }
        state.withLock { c in
            if keep { c.kept.append((topic, payload, now)) }
            if c.messages == 0 { c.firstArrival = now }
            c.messages += 1
            c.lastArrival = now
            if topic.hasSuffix("/event") {
                if payload.contains("\"enter\"") {
                    c.enters += 1
                    if c.enterArrivals[topic] == nil { c.enterArrivals[topic] = now }
                } else if payload.contains("\"exit\"") {
                    c.exits += 1
                }
            } else if topic.hasSuffix("/state") {
                c.states += 1
            }
        }
    }

    /// Waits until `done(counts)` holds or `timeout` seconds pass without a new message.
    func wait(idle timeout: Double, until done: (Counts) -> Bool) -> Counts {
        var last = counts
        var lastChange = BenchClock.now()
        while !done(last) {
            BenchClock.sleep(0.02)
            let now = counts
            if now.messages != last.messages { lastChange = BenchClock.now() }
            last = now
            if BenchClock.seconds(since: lastChange) > timeout { break }
        }
        return last
    }

    func stop() {
        subscriber?.stop()
        subscriber = nil
    }
}
