import BeaconCore
import BeaconWire
import Dispatch
import Glibc
import Synchronization

/// Runs a `Locator` against a broker: subscribes to every gateway's proximity, exit events and
/// status and to the retained locations (`Locator.subscriptions`), feeds what arrives, decides the
/// due ticks several times a second and publishes the result on the same connection.
///
/// Threads: libmosquitto's network thread only feeds the locator (under `state`); one ticker
/// thread advances it and publishes. Messages that find the connection down wait in a bounded
/// queue (newest retained location per topic kept) and go out after the next connect.
public final class LocateService: Sendable {
    /// Which clock decides when a tick is due.
    public enum Clock: Sendable, Equatable {
        /// The wall clock: the live set-up. `not_home` needs it (no message arrives for a gone beacon).
        case wall
        /// The newest reading's timestamp: replays and simulations faster than real time.
        case messages
    }

    struct State {
        var locator: Locator
        var pending: [OutboundMessage] = []
        var stopping = false
        var published = 0
        var dropped = 0
    }

    public let clock: Clock
    /// Most messages held while the broker is unreachable.
    public static let pendingLimit = 10_000
    private let state: Mutex<State>
    private let client: Mutex<MosquittoClient?> = Mutex(nil)
    private let logger: Logger
    private let options: MQTTConnectionOptions
    private let finished = DispatchSemaphore(value: 0)
    private let tick: Duration

    public init(
        locator: Locator, connection: MQTTConnectionOptions, clock: Clock = .wall, logger: Logger,
        tick: Duration = .milliseconds(200)
    ) {
        state = Mutex(State(locator: locator))
        options = connection
        self.clock = clock
        self.logger = logger
        self.tick = tick
    }

    /// A locator for `configuration`'s broker and base topic, on its own session beside a gateway's:
    /// client id `<client_id>-locator`, status `<base>/locators/<gateway.id>/status`. This is what
    /// `locate` runs, and what `run` starts when `locator.enabled` is true.
    public convenience init(
        configuration c: Configuration, settings: LocatorSettings, connection: MQTTConnectionOptions,
        clock: Clock = .wall, logger: Logger
    ) {
        var connection = connection
        connection.clientID += "-locator"
        connection.statusTopic = "\(c.mqtt.baseTopic)/locators/\(c.gateway.id)/status"
        let locator = Locator(
            settings: settings, baseTopic: c.mqtt.baseTopic, qos: c.mqtt.qos, distance: c.ranging.distance)
        self.init(locator: locator, connection: connection, clock: clock, logger: logger)
    }

    /// Messages published so far (locations, events, mqtt_room).
    public var published: Int { state.withLock { $0.published } }

    /// Connects and starts ticking; returns at once.
    public func start() {
        let baseTopic = state.withLock { $0.locator.baseTopic }
        let c = MosquittoClient(options: options, logger: logger) { [weak self] event in
            self?.handle(event, baseTopic: baseTopic)
        }
        client.withLock { $0 = c }
        c.start()
        PosixThread.start(name: "locate-ticker") { [self] in
            ticker()
            finished.signal()
        }
    }

    /// Publishes what is due, then disconnects (the client leaves `offline` on its status topic).
    public func stop() {
        guard client.withLock({ $0 }) != nil else { return }
        state.withLock { $0.stopping = true }
        finished.wait()
        flush()
        client.withLock { $0 }?.stop(timeout: .seconds(2))
    }

    private func handle(_ event: MosquittoClient.Event, baseTopic: String) {
        switch event {
        case .connected:
            guard let c = client.withLock({ $0 }) else { return }
            for pattern in Locator.subscriptions(baseTopic: baseTopic) { _ = c.subscribe(pattern, qos: 1) }
            logger.info("locator subscribed", ["base_topic": baseTopic])
        case .message(let topic, let payload, _, _):
            let text = String(decoding: payload, as: UTF8.self)
            state.withLock { _ = $0.locator.handle(topic: topic, payload: text) }
        default: break
        }
    }

    private func ticker() {
        while true {
            let stopping = state.withLock { $0.stopping }
            advance()
            flush()
            if stopping { return }
            PosixThread.sleep(for: tick)
        }
    }

    private func advance() {
        state.withLock { s in
            let now: Timestamp?
            switch clock {
            case .wall: now = Timestamp(microseconds: Int64(WallTime().timeIntervalSince1970 * 1_000_000))
            case .messages: now = s.locator.newestReading
            }
            guard let now else { return }
            var out: [OutboundMessage] = []
            s.locator.advance(to: now, into: &out)
            s.pending += out
            if s.pending.count > Self.pendingLimit {
                s.dropped += s.pending.count - Self.pendingLimit
                s.pending.removeFirst(s.pending.count - Self.pendingLimit)
            }
        }
    }

    /// Sends the queue in order; stops at the first message the connection refuses.
    private func flush() {
        guard let c = client.withLock({ $0 }) else { return }
        let queue = state.withLock { s in
            defer { s.pending.removeAll() }
            return s.pending
        }
        var sent = 0
        for m in queue {
            guard case .sent = c.publish(m) else { break }
            sent += 1
        }
        state.withLock { s in
            s.published += sent
            s.pending.insert(contentsOf: queue[sent...], at: 0)
        }
    }
}
