import BeaconCore
import BeaconWire
import CMosquitto
import Glibc
import MessageContract
import Platform
import Synchronization

/// One MQTT session to a broker through libmosquitto, with our own reconnect control.
///
/// A dedicated network thread connects, runs `mosquitto_loop` while connected, and after a lost or
/// refused connection waits a jittered exponential `Backoff` before trying again. Each attempt gets a
/// fresh `mosquitto` handle: the library's internal QoS 1 queue would otherwise resend in-flight
/// messages that the agent's `Outbox` re-queues as well, and deliver them twice. Every event is
/// tagged with the handle's `generation`, so late acknowledgements of an old connection are
/// recognisable.
///
/// libmosquitto calls back on the network thread with the `obj` pointer given to `mosquitto_new`:
/// an `Unmanaged` `CallbackBox` retained for the handle's lifetime. Callbacks never take
/// `handleSlot` (publishers hold it while inside the library) and only post events, so neither
/// side can block the other.
package final class MosquittoClient: Sendable {
    package enum Event: Sendable, Equatable {
        /// CONNACK accepted; `online` has been published.
        case connected(generation: UInt64)
        /// TCP, TLS or CONNACK failed; the next attempt follows after a backoff.
        case connectFailed(reason: String)
        case disconnected(generation: UInt64, reason: String)
        /// QoS 0 written, or QoS ≥ 1 acknowledged (PUBACK).
        case published(generation: UInt64, mid: Int32)
        case message(topic: String, payload: [UInt8], qos: Int, retained: Bool)
        /// SUBACK for a `subscribe`.
        case subscribed(generation: UInt64, mid: Int32)
    }

    package enum PublishResult: Sendable, Equatable {
        case sent(mid: Int32)
        case notConnected
        case failed(String)
    }

    package let options: MQTTConnectionOptions
    private let logger: Logger
    private let deliver: @Sendable (Event) -> Void
    private let handleSlot = Mutex<HandleSlot>(HandleSlot())
    /// Waitable: `waitForFirstAttempt` and `stop` wait for what the network thread sets in it.
    private let state = WaitableState(SessionState())
    /// Wakes the network thread's reconnect back-off at once when `stop` begins.
    private let stopSignal = StopSignal()

    /// The live handle, if connected. A raw pointer is not Sendable; it is only dereferenced by
    /// libmosquitto, and only while `handleSlot` is held (or by the network thread that owns it).
    struct HandleSlot: ~Copyable, @unchecked Sendable {
        var handle: OpaquePointer? = nil
        var generation: UInt64 = 0
    }

    struct SessionState {
        var connected = false
        var connectedGeneration: UInt64 = 0
        var everConnected = false
        var stopping = false
        var started = false
        /// The network thread has returned.
        var finished = false
        var reconnects = 0
        var lastFailure: String? = nil
        var lastLoggedFailure: String? = nil
        var lastLibraryError: String? = nil
        /// Packet ids acknowledged since `stop` began (nil before).
        var acknowledgedWhileStopping: Set<Int32>? = nil
    }

    /// - Parameter onEvent: called on the network thread; must not block.
    package init(options: MQTTConnectionOptions, logger: Logger, onEvent: @escaping @Sendable (Event) -> Void) {
        self.options = options
        self.logger = logger
        self.deliver = onEvent
        Self.initialiseLibrary
    }

    /// `mosquitto_lib_init` once per process (it is not thread-safe itself); never cleaned up.
    private static let initialiseLibrary: Void = { _ = mosquitto_lib_init() }()

    // MARK: - Observing

    package var isConnected: Bool { state.withLock { $0.connected } }
    /// Successful connects after the first.
    package var reconnects: Int { state.withLock { $0.reconnects } }
    /// The reason of the most recent failed attempt, if any.
    package var lastFailure: String? { state.withLock { $0.lastFailure } }

    /// Waits until connected (true), or until the first attempt fails or `timeout` passes (false).
    package func waitForFirstAttempt(timeout: Duration) -> Bool {
        var connected = false
        _ = state.wait(for: timeout) { s in
            connected = s.connected
            return s.connected || s.lastFailure != nil
        }
        return connected
    }

    // MARK: - Lifecycle

    /// Starts the network thread; connecting happens in the background.
    package func start() {
        let first = state.withLock { s in
            defer { s.started = true }
            return !s.started
        }
        guard first else { return }
        if options.tls.enabled, options.tls.insecure {
            logger.warning("mqtt.tls.insecure is set: the broker's host name is not verified", ["host": options.host])
        }
        PosixThread.start(name: "mqtt") { [self] in
            networkLoop()
            state.withLock { $0.finished = true }
        }
    }

    /// Clean shutdown: publishes retained `offline` (waiting up to `timeout` for the broker's
    /// acknowledgement), disconnects, and stops the network thread.
    package func stop(timeout: Duration = .seconds(5)) {
        let running = state.withLock { s in
            defer { s.stopping = true }
            return s.started && !s.stopping
        }
        guard running else { return }
        stopSignal.stop()
        let deadline = ContinuousClock.now + timeout
        if isConnected {
            if options.announcesAvailability { publishOfflineAndWait(until: deadline) }
            handleSlot.withLock { slot in
                if let handle = slot.handle { _ = mosquitto_disconnect(handle) }
            }
        }
        // The network thread gets at least 100 ms to finish, even after a slow offline.
        _ = state.wait(for: max(deadline - .now, .milliseconds(100))) { $0.finished }
    }

    private func publishOfflineAndWait(until deadline: ContinuousClock.Instant) {
        // The acknowledgement may arrive before publish returns the mid: record acks from now on.
        state.withLock { $0.acknowledgedWhileStopping = [] }
        let result = publish(
            topic: options.statusTopic, payload: Array("offline".utf8), qos: options.statusQoS, retain: true)
        guard case .sent(let mid) = result else { return }
        _ = state.wait(for: deadline - .now) { $0.acknowledgedWhileStopping?.contains(mid) == true || !$0.connected }
    }

    // MARK: - Publishing

    /// Publishes on the current connection, if any. With `generation`, only on that connection.
    package func publish(
        topic: String, payload: [UInt8], qos: Int, retain: Bool, generation: UInt64? = nil
    ) -> PublishResult {
        handleSlot.withLock { slot in
            guard let handle = slot.handle, state.withLock({ $0.connected }) else { return .notConnected }
            if let generation, generation != slot.generation { return .notConnected }
            var mid: Int32 = 0
            let rc = payload.withUnsafeBytes { raw in
                mosquitto_publish(handle, &mid, topic, Int32(raw.count), raw.baseAddress, Int32(qos), retain)
            }
            switch rc {
            case Int32(MOSQ_ERR_SUCCESS.rawValue): return .sent(mid: mid)
            case Int32(MOSQ_ERR_NO_CONN.rawValue), Int32(MOSQ_ERR_CONN_LOST.rawValue): return .notConnected
            default: return .failed(Self.describe(rc))
            }
        }
    }

    package func publish(_ message: OutboundMessage, generation: UInt64? = nil) -> PublishResult {
        publish(
            topic: message.topic, payload: Array(message.payload.text.utf8), qos: message.qos, retain: message.retain,
            generation: generation)
    }

    /// Subscribes on the current connection; the SUBACK arrives as `.subscribed`. With MQTT 5,
    /// `retainAsPublished` keeps the publisher's retain flag on live messages (MQTT 5 §3.8.3.1,
    /// "Retain As Published", option bit 0x08), which a 3.1.1 broker always clears.
    package func subscribe(_ pattern: String, qos: Int, retainAsPublished: Bool = false) -> Int32? {
        handleSlot.withLock { slot in
            guard let handle = slot.handle else { return nil }
            var mid: Int32 = 0
            let rc =
                retainAsPublished
                ? mosquitto_subscribe_v5(handle, &mid, pattern, Int32(qos), 0x08, nil)
                : mosquitto_subscribe(handle, &mid, pattern, Int32(qos))
            return rc == Int32(MOSQ_ERR_SUCCESS.rawValue) ? mid : nil
        }
    }

    package func unsubscribe(_ pattern: String) {
        handleSlot.withLock { slot in
            if let handle = slot.handle { _ = mosquitto_unsubscribe(handle, nil, pattern) }
        }
    }

    // MARK: - The network thread

    private func networkLoop() {
        var backoff = Backoff(minimum: options.reconnectMin, maximum: options.reconnectMax)
        var random = SystemRandomNumberGenerator()
        while !state.withLock({ $0.stopping }) {
            let generation = handleSlot.withLock { slot in
                slot.generation += 1
                return slot.generation
            }
            let box = CallbackBox(client: self, generation: generation)
            guard let handle = makeHandle(box) else {
                connectFailed("cannot create a mosquitto handle", backoff: &backoff, random: &random)
                continue
            }
            let rc = mosquitto_connect(handle, options.host, Int32(options.port), Int32(options.keepalive.seconds))
            if rc == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                handleSlot.withLock { $0.handle = handle }
                let sessionStart = ContinuousClock.now
                var loopResult = Int32(MOSQ_ERR_SUCCESS.rawValue)
                while loopResult == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                    loopResult = mosquitto_loop(handle, 100, 1)
                    // on_disconnect ran (with MQTT 5, mosquitto_loop may still return success
                    // after our own DISCONNECT), or stopping before the CONNACK came.
                    if box.disconnected || state.withLock({ $0.stopping && !$0.connected }) { break }
                }
                let wasConnected = state.withLock { s in
                    defer { s.connected = false }
                    return s.connected && s.connectedGeneration == generation
                }
                let reason = box.refusal ?? lastLibraryError(or: Self.describe(loopResult))
                handleSlot.withLock { slot in
                    slot.handle = nil
                    destroy(handle, box)
                }
                if wasConnected {
                    // A broker that accepts and drops at once must not be retried at the minimum
                    // delay forever: only a session that lasted resets the backoff.
                    if ContinuousClock.now - sessionStart >= Self.stableSession { backoff.reset() }
                    let stopping = state.withLock { $0.stopping }
                    if stopping {
                        logger.info("disconnected from broker", ["broker": options.endpoint, "reason": "shutdown"])
                    } else {
                        logger.warning("disconnected from broker", ["broker": options.endpoint, "reason": reason])
                    }
                    deliver(.disconnected(generation: generation, reason: stopping ? "shutdown" : reason))
                    if stopping { break }
                    sleep(backoff.nextDelay(using: &random))
                } else {
                    connectFailed(reason, backoff: &backoff, random: &random)
                }
            } else {
                let reason = lastLibraryError(or: Self.describe(rc))
                destroy(handle, box)
                connectFailed(reason, backoff: &backoff, random: &random)
            }
        }
    }

    /// How long a session must have lasted for the next reconnect to start from `reconnect_min`.
    static let stableSession = Duration.seconds(30)

    private func connectFailed(_ reason: String, backoff: inout Backoff, random: inout SystemRandomNumberGenerator) {
        let delay = backoff.nextDelay(using: &random)
        deliver(.connectFailed(reason: reason))
        let firstTime = state.withLock { s in
            s.lastFailure = reason
            defer { s.lastLoggedFailure = reason }
            return s.lastLoggedFailure != reason
        }
        let metadata: KeyValuePairs<String, String> = [
            "broker": options.endpoint, "reason": reason, "retry_in": Self.tenths(delay),
        ]
        if firstTime {
            logger.warning("cannot connect to broker", metadata)
        } else {
            logger.debug("cannot connect to broker", metadata)
        }
        sleep(delay)
    }

    /// `2.5s`: a delay rounded to tenths of a second, for the log.
    static func tenths(_ delay: TimeSpan) -> String {
        let tenths = (max(delay.microseconds, 0) + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)s"
    }

    /// Sleeps up to `delay`, waking at once when `stop` begins.
    private func sleep(_ delay: TimeSpan) { stopSignal.sleep(for: .microseconds(delay.microseconds)) }

    private func lastLibraryError(or fallback: String) -> String {
        let detail = state.withLock { s in
            defer { s.lastLibraryError = nil }
            return s.lastLibraryError
        }
        guard let detail else { return fallback }
        return "\(fallback) (\(detail))"
    }

    // MARK: - Handles

    private func makeHandle(_ box: CallbackBox) -> OpaquePointer? {
        let obj = Unmanaged.passRetained(box).toOpaque()
        guard let handle = mosquitto_new(options.clientID, options.cleanSession, obj) else {
            Unmanaged<CallbackBox>.fromOpaque(obj).release()
            return nil
        }
        _ = mosquitto_threaded_set(handle, true)
        let version = options.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, version)
        // Small messages go out at once: with Nagle's algorithm an enter written while an earlier
        // packet awaits its ACK waits for the peer's delayed ACK (40 ms on Linux).
        _ = mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1)
        if let username = options.username {
            _ = mosquitto_username_pw_set(handle, username, options.password)
        }
        if options.tls.enabled {
            let tls = options.tls
            if tls.caFile == nil, tls.caPath == nil {
                // No CA configured: trust the system's CAs (this also turns TLS on).
                _ = mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
            }
            _ = mosquitto_tls_set(handle, tls.caFile, tls.caPath, tls.certFile, tls.keyFile, nil)
            _ = mosquitto_tls_opts_set(handle, 1, tls.version, nil)
            if tls.insecure { _ = mosquitto_tls_insecure_set(handle, true) }
        }
        if options.announcesAvailability {
            let offline = Array("offline".utf8)
            _ = offline.withUnsafeBytes { raw in
                mosquitto_will_set(
                    handle, options.statusTopic, Int32(raw.count), raw.baseAddress, Int32(options.statusQoS), true)
            }
        }
        mosquitto_connect_callback_set(handle) { mosq, obj, rc in
            CallbackBox.from(obj).client.didConnect(mosq, box: CallbackBox.from(obj), rc: rc)
        }
        mosquitto_disconnect_callback_set(handle) { _, obj, _ in CallbackBox.from(obj).disconnected = true }
        mosquitto_publish_callback_set(handle) { _, obj, mid in
            let box = CallbackBox.from(obj)
            box.client.didPublish(generation: box.generation, mid: mid)
        }
        mosquitto_subscribe_callback_set(handle) { _, obj, mid, _, _ in
            let box = CallbackBox.from(obj)
            box.client.deliver(.subscribed(generation: box.generation, mid: mid))
        }
        mosquitto_message_callback_set(handle) { _, obj, message in
            guard let message else { return }
            let m = message.pointee
            let topic = m.topic.map { String(cString: $0) } ?? ""
            let payload: [UInt8] =
                m.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(m.payloadlen))) } ?? []
            CallbackBox.from(obj).client.deliver(
                .message(topic: topic, payload: payload, qos: Int(m.qos), retained: m.retain))
        }
        mosquitto_log_callback_set(handle) { _, obj, level, text in
            guard level & MOSQ_LOG_ERR != 0, let text else { return }
            let line = String(cString: text)
            CallbackBox.from(obj).client.state.withLock { $0.lastLibraryError = line }
        }
        return handle
    }

    private func destroy(_ handle: OpaquePointer, _ box: CallbackBox) {
        mosquitto_destroy(handle)
        Unmanaged.passUnretained(box).release()
    }

    // MARK: - Callbacks (network thread)

    fileprivate func didConnect(_ mosq: OpaquePointer?, box: CallbackBox, rc: Int32) {
        guard rc == 0, let mosq else {
            box.refusal =
                options.protocolVersion == .v5
                ? String(cString: mosquitto_reason_string(rc)) : String(cString: mosquitto_connack_string(rc))
            return
        }
        if options.announcesAvailability {
            let online = Array("online".utf8)
            _ = online.withUnsafeBytes { raw in
                mosquitto_publish(
                    mosq, nil, options.statusTopic, Int32(raw.count), raw.baseAddress, Int32(options.statusQoS), true)
            }
        }
        let reconnect = state.withLock { s in
            s.connected = true
            s.connectedGeneration = box.generation
            s.lastFailure = nil
            s.lastLoggedFailure = nil
            defer { s.everConnected = true }
            if s.everConnected { s.reconnects += 1 }
            return s.everConnected
        }
        logger.info(
            reconnect ? "reconnected to broker" : "connected to broker",
            ["broker": options.endpoint, "client_id": options.clientID, "protocol": options.protocolVersion.rawValue])
        deliver(.connected(generation: box.generation))
    }

    fileprivate func didPublish(generation: UInt64, mid: Int32) {
        state.withLock { s in s.acknowledgedWhileStopping?.insert(mid) }
        deliver(.published(generation: generation, mid: mid))
    }

    static func describe(_ rc: Int32) -> String {
        if rc == Int32(MOSQ_ERR_ERRNO.rawValue) { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }
}

/// What libmosquitto hands back as `obj`: the client and the handle generation.
private final class CallbackBox: @unchecked Sendable {
    let client: MosquittoClient
    let generation: UInt64
    /// The CONNACK refusal reason, and whether on_disconnect ran. Written and read only on the
    /// network thread (callbacks run inside `mosquitto_loop` there), hence unchecked Sendable.
    var refusal: String?
    var disconnected = false

    init(client: MosquittoClient, generation: UInt64) {
        self.client = client
        self.generation = generation
    }

    static func from(_ obj: UnsafeMutableRawPointer?) -> CallbackBox {
        Unmanaged<CallbackBox>.fromOpaque(obj!).takeUnretainedValue()
    }
}
