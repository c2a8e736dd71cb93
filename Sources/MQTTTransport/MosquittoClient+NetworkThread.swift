import CMosquitto
import Platform
import Synchronization
import Vocabulary

/// The network thread: connect, `mosquitto_loop`, back off and retry; each attempt's handle and the
/// libmosquitto callbacks that post its events.
extension MosquittoClient {
    // MARK: - The network thread

    func networkLoop() {
        var backoff = options.reconnect
        var random = SystemRandomNumberGenerator()
        // `mqtt.host`, then each failover broker: a failed attempt or an ended session moves on to the
        // next (after the last, the first again), so the agent stays on a broker while it works.
        let brokers = options.brokers
        var next = 0
        while !state.withLock({ $0.stopping }) {
            let broker = brokers[next]
            let endpoint = options.endpoint(of: broker)
            next = (next + 1) % brokers.count
            state.withLock { $0.endpoint = endpoint }
            let generation = handleSlot.withLock { slot in
                slot.generation += 1
                return slot.generation
            }
            let box = CallbackBox(client: self, generation: generation)
            guard let handle = makeHandle(box) else {
                connectFailed("cannot create a mosquitto handle", endpoint, backoff: &backoff, random: &random)
                continue
            }
            let rc = mosquitto_connect(handle, broker.host, Int32(broker.port), Int32(options.keepalive.seconds))
            if rc == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                handleSlot.withLock { $0.handle = handle }
                let sessionStart = ContinuousClock.now
                var loopResult = Int32(MOSQ_ERR_SUCCESS.rawValue)
                while loopResult == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                    // On TLS, mosquitto_loop reads a packet per wake-up and then what OpenSSL has
                    // decrypted already (a TLS record holds many): those are handed over together.
                    loopResult =
                        writesDirectly ? drivePass(handle) : collectingEvents { mosquitto_loop(handle, 100, 1) }
                    // on_disconnect ran (with MQTT 5, mosquitto_loop may still return success
                    // after our own DISCONNECT), or stopping before the CONNACK came.
                    if box.disconnected.load(ordering: .acquiring) || state.withLock({ $0.stopping && !$0.connected }) {
                        break
                    }
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
                        logger.info("disconnected from broker", ["broker": endpoint, "reason": "shutdown"])
                    } else {
                        logger.warning("disconnected from broker", ["broker": endpoint, "reason": reason])
                    }
                    deliver(.disconnected(generation: generation, reason: stopping ? "shutdown" : reason))
                    if stopping { break }
                    sleep(backoff.nextDelay(using: &random))
                } else {
                    connectFailed(reason, endpoint, backoff: &backoff, random: &random)
                }
            } else {
                let reason = lastLibraryError(or: Self.describe(rc))
                destroy(handle, box)
                connectFailed(reason, endpoint, backoff: &backoff, random: &random)
            }
        }
    }

    /// How long a session must have lasted for the next reconnect to start from `reconnect_min`.
    static let stableSession = Duration.seconds(30)

    private func connectFailed(
        _ reason: String, _ endpoint: String, backoff: inout Backoff, random: inout SystemRandomNumberGenerator
    ) {
        let delay = backoff.nextDelay(using: &random)
        deliver(.connectFailed(reason: reason))
        let firstTime = state.withLock { s in
            s.lastFailure = reason
            if !s.everConnected { s.failedAttempts += 1 }
            defer { s.lastLoggedFailure = reason }
            return s.lastLoggedFailure != reason
        }
        let metadata: KeyValuePairs<String, String> = [
            "broker": endpoint, "reason": reason, "retry_in": Self.tenths(delay),
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
        if let window = options.inFlightWindow {
            _ = mosquitto_int_option(handle, MOSQ_OPT_SEND_MAXIMUM, Int32(window))
        }
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
            let offline = Availability.offline.payload
            _ = offline.withUnsafeBytes { raw in
                mosquitto_will_set(
                    handle, options.statusTopic, Int32(raw.count), raw.baseAddress, Int32(options.statusQoS), true)
            }
        }
        mosquitto_connect_callback_set(handle) { mosq, obj, rc in
            CallbackBox.from(obj).client.didConnect(mosq, box: CallbackBox.from(obj), rc: rc)
        }
        mosquitto_disconnect_callback_set(handle) { _, obj, _ in
            CallbackBox.from(obj).disconnected.store(true, ordering: .releasing)
        }
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

    private func didConnect(_ mosq: OpaquePointer?, box: CallbackBox, rc: Int32) {
        guard rc == 0, let mosq else {
            box.refusal =
                options.protocolVersion == .v5
                ? String(cString: mosquitto_reason_string(rc)) : String(cString: mosquitto_connack_string(rc))
            return
        }
        // libmosquitto formats every log line it has (a debug line per packet sent or read, with
        // a heap buffer and vsnprintf) whenever a log callback is set, and filters nothing by level
        // first. The callback is for the reason of a failed connect or TLS session; on plain TCP a
        // connected session's errors come back as return codes, so it goes once connected.
        if !options.tls.enabled { mosquitto_log_callback_set(mosq, nil) }
        if options.announcesAvailability {
            let online = Availability.online.payload
            _ = online.withUnsafeBytes { raw in
                mosquitto_publish(
                    mosq, nil, options.statusTopic, Int32(raw.count), raw.baseAddress, Int32(options.statusQoS), true)
            }
        }
        let (reconnect, endpoint) = state.withLock { s in
            s.connected = true
            s.connectedGeneration = box.generation
            s.lastFailure = nil
            s.lastLoggedFailure = nil
            defer { s.everConnected = true }
            if s.everConnected { s.reconnects += 1 }
            return (s.everConnected, s.endpoint)
        }
        logger.info(
            reconnect ? "reconnected to broker" : "connected to broker",
            ["broker": endpoint, "client_id": options.clientID, "protocol": options.protocolVersion.rawValue])
        deliver(.connected(generation: box.generation))
    }

    private func didPublish(generation: UInt64, mid: Int32) {
        state.withLock { s in s.acknowledgedWhileStopping?.insert(mid) }
        deliver(.published(generation: generation, mid: mid))
    }
}

/// What libmosquitto hands back as `obj`: the client and the handle generation.
private final class CallbackBox: @unchecked Sendable {
    let client: MosquittoClient
    let generation: UInt64
    /// The CONNACK refusal reason: written and read only on the network thread (the CONNACK is
    /// read there, and on_connect runs inside its read), hence unchecked Sendable.
    var refusal: String?
    /// Whether on_disconnect ran: on the network thread, or in the thread whose write found the
    /// connection lost (`writeQueued`).
    let disconnected = Atomic<Bool>(false)

    init(client: MosquittoClient, generation: UInt64) {
        self.client = client
        self.generation = generation
    }

    static func from(_ obj: UnsafeMutableRawPointer?) -> CallbackBox {
        Unmanaged<CallbackBox>.fromOpaque(obj!).takeUnretainedValue()
    }
}
