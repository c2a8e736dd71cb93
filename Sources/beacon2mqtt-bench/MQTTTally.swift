import CMosquitto
import Foundation
import Synchronization

/// A subscriber that counts what the agent delivers: every message, and each enter/exit event with
/// its arrival time (for the report → enter latency). libmosquitto runs its own network thread;
/// callbacks reach this object through an `Unmanaged` box passed as the client's user data.
// Invariant for @unchecked Sendable: `handle` and `box` are used only by the thread that owns this
// object (init, stop); libmosquitto's network thread touches only `state` (a Mutex) and `subscribed`.
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
    /// The libmosquitto handle, owned by this object from init to `stop()`.
    private let handle: OpaquePointer
    /// SUBACKs received: one per pattern.
    private let subscribed = Atomic<Int>(0)
    private let keeping: [String]

    var counts: Counts { state.withLock { $0 } }

    /// Subscribes to `topic` and `also`; keeps messages whose topic ends in one of `keeping`.
    init(port: Int, topic: String, also: [String] = [], keeping: [String] = []) throws(BenchFailure) {
        self.keeping = keeping
        mosquitto_lib_init()
        let box = Unmanaged<Box>.passRetained(Box())
        guard let mosq = mosquitto_new("beacon2mqtt-bench-\(getpid())", true, box.toOpaque()) else {
            box.release()
            throw BenchFailure("mosquitto_new failed")
        }
        handle = mosq
        self.box = box
        _ = mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1)  // its PUBACKs go out at once, like the agent's writes
        box.takeUnretainedValue().tally = self
        mosquitto_subscribe_callback_set(mosq) { _, obj, _, _, _ in
            guard let obj else { return }
            _ = Unmanaged<Box>.fromOpaque(obj).takeUnretainedValue().tally?.subscribed.add(1, ordering: .releasing)
        }
        mosquitto_message_callback_set(mosq) { _, obj, message in
            guard let obj, let message, let tally = Unmanaged<Box>.fromOpaque(obj).takeUnretainedValue().tally else {
                return
            }
            tally.received(message.pointee)
        }
        let patterns = [topic] + also
        guard mosquitto_connect(mosq, "127.0.0.1", Int32(port), 60) == MOSQ_ERR_SUCCESS.rawValue,
            patterns.allSatisfy({ mosquitto_subscribe(mosq, nil, $0, 1) == MOSQ_ERR_SUCCESS.rawValue }),
            mosquitto_loop_start(mosq) == MOSQ_ERR_SUCCESS.rawValue
        else {
            stop()
            throw BenchFailure("the counting subscriber cannot connect to 127.0.0.1:\(port)")
        }
        let deadline = BenchClock.now() + 5_000_000_000
        while subscribed.load(ordering: .acquiring) < patterns.count {
            guard BenchClock.now() < deadline else {
                stop()
                throw BenchFailure("no SUBACK from the broker")
            }
            BenchClock.sleep(0.005)
        }
    }

    /// Kept alive while libmosquitto may call back; released in `stop()`.
    private let box: Unmanaged<Box>

    /// The callback target; `tally` is set once, right after creation, before the network thread starts.
    private final class Box: @unchecked Sendable {
        // Invariant: written once in MQTTTally.init before mosquitto_loop_start, only read afterwards.
        weak var tally: MQTTTally?
    }

    private func received(_ message: mosquitto_message) {
        let now = BenchClock.now()
        let topic = String(cString: message.topic)
        let payload = message.payloadlen > 0
            ? String(decoding: UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen)), as: UTF8.self)
            : ""
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
        mosquitto_disconnect(handle)
        mosquitto_loop_stop(handle, false)
        mosquitto_destroy(handle)
        box.release()
    }
}
