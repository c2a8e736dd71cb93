import CMosquitto
import Glibc
import Platform
import Synchronization
import Vocabulary

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
/// side can block the other. Events raised inside one call into the library reach the consumer
/// together (MosquittoClient+Delivery.swift).
///
/// It speaks topic strings and payload bytes (`BrokerEvent`, `PublishOutcome`): which topics and
/// what payloads is the message contract's business, above the transport.
package final class MosquittoClient: Sendable {
    package typealias Event = BrokerEvent

    package let options: MQTTConnectionOptions
    let logger: Logger
    /// The consumer, set once (at `init` or `start`): called with the events of one pass, in order
    /// (MosquittoClient+Delivery.swift). A lazy reference: a delivery reads it with one atomic load.
    let consumer = AtomicLazyReference<Consumer>()
    /// The events held back while a thread drives libmosquitto.
    let heldEvents = Mutex<HeldEvents>(HeldEvents())
    let handleSlot = Mutex<HandleSlot>(HandleSlot())
    /// Waitable: `waitForFirstAttempt` and `stop` wait for what the network thread sets in it.
    let state = WaitableState(SessionState())
    /// Wakes the network thread's reconnect back-off at once when `stop` begins.
    let stopSignal = StopSignal()
    /// Wakes the network thread's poll: a write is left to it, or `stop` began (plain TCP; see
    /// MosquittoClient+Driving.swift).
    let writeWake = WakeEvent()
    /// Held by the one thread inside libmosquitto's read, write or misc calls (plain TCP).
    let driveLock = Mutex<Void>(())

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
        /// Attempts that failed before any connect (`waitForFirstAttempt` waits for one per broker).
        var failedAttempts = 0
        /// The broker of the current or latest attempt, as log lines name it.
        var endpoint = ""
        var lastLoggedFailure: String? = nil
        var lastLibraryError: String? = nil
        /// Packet ids acknowledged since `stop` began (nil before).
        var acknowledgedWhileStopping: Set<Int32>? = nil
        /// The network thread's kernel thread id, once it runs (tests read its wake-ups in procfs).
        var networkThread: pid_t? = nil
    }

    /// Where the events go: the consumer `start(delivering:)` (or `init`) was given.
    final class Consumer: Sendable {
        let deliver: @Sendable ([Event]) -> Void
        init(_ deliver: @escaping @Sendable ([Event]) -> Void) { self.deliver = deliver }
    }

    /// A client whose consumer comes with `start(delivering:)`.
    package init(options: MQTTConnectionOptions, logger: Logger) {
        self.options = options
        self.logger = logger
        Self.initialiseLibrary
    }

    /// - Parameter onEvents: called with the events of one read pass (or of one write, or a single
    ///   event), in order, on the network thread or a publishing thread; must not block.
    package convenience init(
        options: MQTTConnectionOptions, logger: Logger, onEvents: @escaping @Sendable ([Event]) -> Void
    ) {
        self.init(options: options, logger: logger)
        _ = consumer.storeIfNil(Consumer(onEvents))
    }

    /// - Parameter onEvent: called once per event, in order; must not block.
    package convenience init(
        options: MQTTConnectionOptions, logger: Logger, onEvent: @escaping @Sendable (Event) -> Void
    ) {
        self.init(options: options, logger: logger, onEvents: { events in events.forEach(onEvent) })
    }

    /// `mosquitto_lib_init` once per process (it is not thread-safe itself); never cleaned up.
    private static let initialiseLibrary: Void = { _ = mosquitto_lib_init() }()

    // MARK: - Observing

    package var isConnected: Bool { state.withLock { $0.connected } }
    /// Successful connects after the first.
    package var reconnects: Int { state.withLock { $0.reconnects } }
    /// The reason of the most recent failed attempt, if any.
    package var lastFailure: String? { state.withLock { $0.lastFailure } }
    /// The network thread's kernel thread id (`/proc/self/task/<id>`), once started.
    package var networkThread: pid_t? { state.withLock { $0.networkThread } }

    /// How the broker of the current or latest attempt (before the first: the first broker) is
    /// addressed in log lines (no credentials).
    package var endpoint: String {
        let current = state.withLock { $0.endpoint }
        return current.isEmpty ? options.endpoint : current
    }

    /// Waits until connected (true), or until an attempt on every broker of the list failed or
    /// `timeout` passes (false).
    package func waitForFirstAttempt(timeout: TimeSpan) -> Bool {
        var connected = false
        let brokers = options.brokers.count
        _ = state.wait(for: Duration(timeout)) { s in
            connected = s.connected
            return s.connected || s.failedAttempts >= brokers
        }
        return connected
    }

    // MARK: - Lifecycle

    /// Starts the network thread, delivering its events to `deliver` (see `init(options:logger:onEvents:)`).
    package func start(delivering deliver: @escaping @Sendable ([Event]) -> Void) {
        _ = consumer.storeIfNil(Consumer(deliver))
        start()
    }

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
            let id = PosixThread.currentKernelID
            state.withLock { $0.networkThread = id }
            networkLoop()
            state.withLock { $0.finished = true }
        }
    }

    /// Clean shutdown: publishes retained `offline` (waiting up to `timeout` for the broker's
    /// acknowledgement), disconnects, and stops the network thread.
    package func stop(timeout: TimeSpan = .seconds(5)) {
        let running = state.withLock { s in
            defer { s.stopping = true }
            return s.started && !s.stopping
        }
        guard running else { return }
        stopSignal.stop()
        writeWake.signal()  // a session still waiting for its CONNACK ends at once
        let deadline = ContinuousClock.now + Duration(timeout)
        if isConnected {
            if options.announcesAvailability { publishOfflineAndWait(until: deadline) }
            handleSlot.withLock { slot in
                if let handle = slot.handle { _ = mosquitto_disconnect(handle) }
            }
            // The network thread writes the DISCONNECT (its write closes the socket under it).
            writeWake.signal()
        }
        // The network thread gets at least 100 ms to finish, even after a slow offline.
        _ = state.wait(for: max(deadline - .now, .milliseconds(100))) { $0.finished }
    }

    private func publishOfflineAndWait(until deadline: ContinuousClock.Instant) {
        // The acknowledgement may arrive before publish returns the mid: record acks from now on.
        state.withLock { $0.acknowledgedWhileStopping = [] }
        let result = publish(
            topic: options.statusTopic, payload: Availability.offline.payload, qos: options.statusQoS, retain: true)
        guard case .sent(let mid) = result else { return }
        _ = state.wait(for: deadline - .now) { $0.acknowledgedWhileStopping?.contains(mid) == true || !$0.connected }
    }

    // MARK: - Publishing

    /// Publishes on the current connection, if any. With `generation`, only on that connection.
    package func publish(
        topic: String, payload: [UInt8], qos: Int, retain: Bool, generation: UInt64? = nil
    ) -> PublishOutcome {
        payload.withUnsafeBytes { publish(topic: topic, payload: $0, qos: qos, retain: retain, generation: generation) }
    }

    /// The payload goes to libmosquitto (which copies it) straight from the caller's storage, and
    /// the topic as the string's own C string: no array of either per message.
    package func publish(
        topic: String, payload: UnsafeRawBufferPointer, qos: Int, retain: Bool, generation: UInt64?
    ) -> PublishOutcome {
        handleSlot.withLock { slot in
            guard let handle = slot.handle, state.withLock({ $0.connected }) else { return .notConnected }
            if let generation, generation != slot.generation { return .notConnected }
            var mid: Int32 = 0
            let rc = topic.withCString { topic in
                mosquitto_publish(handle, &mid, topic, Int32(payload.count), payload.baseAddress, Int32(qos), retain)
            }
            switch rc {
            case Int32(MOSQ_ERR_SUCCESS.rawValue):
                writeQueued(handle, directly: qos > 0)
                return .sent(mid: mid)
            case Int32(MOSQ_ERR_NO_CONN.rawValue), Int32(MOSQ_ERR_CONN_LOST.rawValue): return .notConnected
            default: return .failed(Self.describe(rc))
            }
        }
    }

    /// Subscribes on the current connection; the SUBACK arrives as `.subscribed`.
    package func subscribe(_ pattern: String, qos: Int) -> Int32? {
        subscribe(pattern, qos: qos, retainAsPublished: false)
    }

    /// With MQTT 5, `retainAsPublished` keeps the publisher's retain flag on live messages (MQTT 5
    /// §3.8.3.1, "Retain As Published", option bit 0x08), which a 3.1.1 broker always clears.
    package func subscribe(_ pattern: String, qos: Int, retainAsPublished: Bool) -> Int32? {
        handleSlot.withLock { slot in
            guard let handle = slot.handle else { return nil }
            var mid: Int32 = 0
            let rc =
                retainAsPublished
                ? mosquitto_subscribe_v5(handle, &mid, pattern, Int32(qos), 0x08, nil)
                : mosquitto_subscribe(handle, &mid, pattern, Int32(qos))
            guard rc == Int32(MOSQ_ERR_SUCCESS.rawValue) else { return nil }
            writeQueued(handle)
            return mid
        }
    }

    package func unsubscribe(_ pattern: String) {
        handleSlot.withLock { slot in
            if let handle = slot.handle, mosquitto_unsubscribe(handle, nil, pattern) == Int32(MOSQ_ERR_SUCCESS.rawValue)
            {
                writeQueued(handle)
            }
        }
    }

    static func describe(_ rc: Int32) -> String {
        if rc == Int32(MOSQ_ERR_ERRNO.rawValue) { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }
}
