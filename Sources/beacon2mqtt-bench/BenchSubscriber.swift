import CMosquitto
import Foundation
import Synchronization

/// A libmosquitto subscriber on its own network thread that hands every message (topic, payload,
/// arrival on the monotonic clock) to `handler`, for sections that count or time what arrives.
/// Callbacks reach it through an `Unmanaged` box passed as the client's user data.
// Invariant for @unchecked Sendable: `handle` is used only by the owning thread (init, stop);
// libmosquitto's network thread touches only the box, `handler` (immutable) and `subscribed`.
final class BenchSubscriber: @unchecked Sendable {
    typealias Handler = @Sendable (_ topic: String, _ payload: [UInt8], _ arrival: UInt64) -> Void

    private let handle: OpaquePointer
    private let box: Unmanaged<Box>
    private let subscribed = Atomic<Int>(0)

    private final class Box: @unchecked Sendable {
        // Invariant: written once in init before mosquitto_loop_start, only read afterwards.
        weak var subscriber: BenchSubscriber?
        let handler: Handler
        init(_ handler: @escaping Handler) { self.handler = handler }
    }

    init(port: Int, topics: [(String, Int32)], id: String, handler: @escaping Handler) throws(BenchFailure) {
        mosquitto_lib_init()
        let box = Unmanaged<Box>.passRetained(Box(handler))
        guard let mosq = mosquitto_new("beacon2mqtt-bench-\(id)-\(getpid())", true, box.toOpaque()) else {
            box.release()
            throw BenchFailure("mosquitto_new failed")
        }
        handle = mosq
        self.box = box
        _ = mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1)
        box.takeUnretainedValue().subscriber = self
        mosquitto_subscribe_callback_set(mosq) { _, obj, _, _, _ in
            guard let obj else { return }
            _ = Unmanaged<Box>.fromOpaque(obj).takeUnretainedValue().subscriber?.subscribed.add(1, ordering: .releasing)
        }
        mosquitto_message_callback_set(mosq) { _, obj, message in
            guard let obj, let message else { return }
            let now = BenchClock.now()
            let m = message.pointee
            let payload =
                m.payloadlen > 0 ? Array(UnsafeRawBufferPointer(start: m.payload, count: Int(m.payloadlen))) : []
            Unmanaged<Box>.fromOpaque(obj).takeUnretainedValue().handler(String(cString: m.topic), payload, now)
        }
        var ok = mosquitto_connect(mosq, "127.0.0.1", Int32(port), 60) == MOSQ_ERR_SUCCESS.rawValue
        for (topic, qos) in topics where ok {
            ok = mosquitto_subscribe(mosq, nil, topic, qos) == MOSQ_ERR_SUCCESS.rawValue
        }
        guard ok, mosquitto_loop_start(mosq) == MOSQ_ERR_SUCCESS.rawValue else {
            stop()
            throw BenchFailure("subscriber \(id) cannot connect to 127.0.0.1:\(port)")
        }
        let deadline = BenchClock.now() + 5_000_000_000
        while subscribed.load(ordering: .acquiring) < topics.count {
            guard BenchClock.now() < deadline else {
                stop()
                throw BenchFailure("no SUBACK from 127.0.0.1:\(port)")
            }
            BenchClock.sleep(0.005)
        }
    }

    func stop() {
        mosquitto_disconnect(handle)
        mosquitto_loop_stop(handle, false)
        mosquitto_destroy(handle)
        box.release()
    }
}
