import CMosquitto
import Foundation

/// A publisher for sections that feed a real program through the broker (the gateways' messages
/// into `locate`): one libmosquitto client with its own network thread; `publish` only queues.
// Invariant for @unchecked Sendable: the handle is used by the thread that owns this object
// (init, publish, stop); libmosquitto's network thread only writes what publish queued.
final class MQTTPublisher: @unchecked Sendable {
    private let handle: OpaquePointer
    private(set) var published = 0
    private(set) var refused = 0

    init(port: Int, clientID: String) throws(BenchFailure) {
        mosquitto_lib_init()
        guard let mosq = mosquitto_new(clientID, true, nil) else { throw BenchFailure("mosquitto_new failed") }
        handle = mosq
        _ = mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1)
        guard mosquitto_connect(mosq, "127.0.0.1", Int32(port), 60) == MOSQ_ERR_SUCCESS.rawValue,
            mosquitto_loop_start(mosq) == MOSQ_ERR_SUCCESS.rawValue
        else {
            mosquitto_destroy(mosq)
            throw BenchFailure("the publisher cannot connect to 127.0.0.1:\(port)")
        }
    }

    /// Not retained; QoS 0 by default, as gateways publish proximity.
    func publish(_ topic: String, _ payload: [UInt8], qos: Int32 = 0) {
        let rc = payload.withUnsafeBytes { raw in
            mosquitto_publish(handle, nil, topic, Int32(raw.count), raw.baseAddress, qos, false)
        }
        if rc == MOSQ_ERR_SUCCESS.rawValue { published += 1 } else { refused += 1 }
    }

    func stop() {
        mosquitto_disconnect(handle)
        mosquitto_loop_stop(handle, false)
        mosquitto_destroy(handle)
    }
}
