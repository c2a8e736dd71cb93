import AgentCore
import BeaconCore
import BeaconWire
import Glibc

/// The `run` daemon: one pipeline thread that owns the `MessagePipeline` and the `Outbox`, fed by
/// an `AgentEventQueue` from the source thread, the MQTT network thread and the signal thread.
/// Timers (ranging ticks, stats) are deadlines of the queue wait, so nothing else ever blocks it.
/// See README, "Threading model".
public final class Agent<Pipeline: MessagePipeline> {
    public let queue = AgentEventQueue()
    public private(set) var configuration: Configuration
    private var pipeline: Pipeline
    private let source: any PacketSource
    private let options: AgentOptions
    private var logger: Logger
    private let reload: () throws -> Configuration
    private var client: MosquittoClient!

    private enum Phase: Equatable {
        case restoring
        case running
        case finishing(deadline: WallTime)
    }

    private var phase = Phase.restoring
    /// Both outbox lanes, the held queue and the windows (see `DeliveryPolicy`).
    private var delivery: DeliveryPolicy
    private var connectedGeneration: UInt64?
    private var everConnected = false
    private var sourceFailed = false
    /// Why the source is degraded (published as status `degraded`), nil while healthy.
    private var degradedReason: String?
    private var out: [OutboundMessage] = []
    /// The rest of a batch of packets, waiting while `acceptsSourceEvents` is false.
    private var deferred: ArraySlice<CapturedPacket> = []
    /// Between the end of a finite source and `.finishing`: pending exits are still firing.
    private var draining = false
    /// The first connection attempt succeeded or failed.
    private var firstAttemptDone = false
    // Time
    private let started = WallTime()
    private var anchor: (packet: Timestamp, wall: WallTime)?
    private var nextAdvance: WallTime
    private var nextStats: WallTime
    private var lastStats: (at: WallTime, reports: Int)
    // Restore
    private var restoreDeadline: WallTime
    private var restoreQuietUntil: WallTime?
    private var restoreSubscriptions: [String] = []
    private var pendingSubAcks: Set<Int32> = []
    private var restoreGeneration: UInt64?
    private var retained: [String: String] = [:]
    // systemd (ship): READY/STATUS/RELOADING/STOPPING through sd_notify, and WATCHDOG=1 fed by
    // this loop's own turns (PipelineWatchdog), so a wedged loop gets the service restarted.
    private let systemd = SystemdNotifier(environment: ProcessEnvironment.current())
    private lazy var watchdog = PipelineWatchdog(notifier: systemd)

    /// - Parameter reload: re-reads the configuration for SIGHUP; a thrown error keeps the old one.
    public init(
        configuration: Configuration, connection: MQTTConnectionOptions, pipeline: Pipeline, source: any PacketSource,
        options: AgentOptions, logger: Logger, reload: @escaping () throws -> Configuration
    ) {
        self.configuration = configuration
        self.pipeline = pipeline
        self.source = source
        self.options = options
        self.logger = logger
        self.reload = reload
        delivery = DeliveryPolicy(outboxLimit: configuration.mqtt.outboxLimit, inFlightWindow: options.inFlightWindow)
        let now = WallTime()
        nextAdvance = now
        nextStats = now.addingTimeInterval(configuration.mqtt.statsInterval.seconds)
        lastStats = (now, 0)
        restoreDeadline = now.addingTimeInterval(options.restoreTimeout)
        // A capture has a clock of its own: states saved by a live run (or a previous replay) say
        // nothing about it, and restoring them would make a replay's output depend on the broker.
        if options.timing != .wallClock { phase = .running }
        let queue = self.queue
        client = MosquittoClient(options: connection, logger: logger) { queue.post(.mqtt($0)) }
        let base = configuration.mqtt.baseTopic
        let gw = configuration.gateway.id
        restoreSubscriptions = ["\(base)/+/+/+/\(gw)/attributes", "\(base)/regions/+/\(gw)/attributes"]
    }

    /// What the outbox and the pipeline have counted so far.
    public var counters: AgentCounters {
        AgentCounters(
            outbox: delivery.counters, queued: delivery.queuedCount, pipeline: pipeline.statistics,
            reconnects: client.reconnects, rejected: delivery.rejected)
    }

    /// Runs until SIGTERM/SIGINT or the end of the source; returns the process exit code.
    public func run() -> ExitCode {
        logger.info(
            "starting",
            ["gateway": configuration.gateway.id, "broker": client.options.endpoint, "version": Version.string])
        client.start()
        if configuration.mqtt.requireBrokerAtStart,
            !client.waitForFirstAttempt(timeout: .milliseconds(Int64(options.brokerStartTimeout * 1000)))
        {
            logger.error(
                "broker unavailable at start (mqtt.require_broker_at_start)",
                ["broker": client.options.endpoint, "reason": client.lastFailure ?? "timeout"])
            client.stop(timeout: .seconds(1))
            return .unavailable
        }
        if options.handleSignals { SignalWatcher.start(posting: queue) }
        startSource()
        systemd.ready(status: serviceStatus())  // systemd (ship)
        while true {
            let now = WallTime()
            if case .finishing(let deadline) = phase, delivery.isIdle || now >= deadline {
                break
            }
            if phase == .restoring, now >= (restoreQuietUntil.map { min($0, restoreDeadline) } ?? restoreDeadline) {
                finishRestore()
            }
            if phase == .running { runTimers(now) }
            while draining, acceptsSourceEvents {
                drainStep()
                publishQueued()
            }
            if !deferred.isEmpty, acceptsSourceEvents { ingest(deferred) }
            let takesSource = acceptsSourceEvents && deferred.isEmpty
            if let event = queue.take(includeSource: takesSource, until: nextWake()) {
                handle(event)
            }
            publishQueued()
            watchdog?.loopTurned()  // systemd (ship): at least once a second (nextWake)
        }
        return shutDown()
    }

    private var isFinishing: Bool {
        if case .finishing = phase { return true }
        return false
    }

    /// The next deadline of the current phase (timers only run while `.running`).
    private func nextWake() -> WallTime {
        let wake = WallTime().addingTimeInterval(1)
        switch phase {
        case .restoring:
            return min(wake, restoreQuietUntil ?? restoreDeadline, restoreDeadline)
        case .finishing(let deadline):
            return min(wake, deadline, WallTime().addingTimeInterval(0.05))
        case .running:
            return min(wake, nextStats, advancesOnTimer ? nextAdvance : wake)
        }
    }

    private var advancesOnTimer: Bool { options.timing != .capture(speed: nil) && phase == .running }

    // MARK: - Events

    private func handle(_ event: AgentEvent) {
        switch event {
        case .source(.packet(let packet)):
            ingest([packet])
        case .source(.packets(let batch)):
            ingest(batch[...])
        case .source(.health(let reason)):
            guard reason != degradedReason else { return }
            if let reason {
                logger.warning("source degraded", ["reason": reason])
            } else {
                logger.info("source healthy again")
            }
            degradedReason = reason
            publishStatus()
            systemd.status(serviceStatus())  // systemd (ship)
        case .source(.end):
            break
        case .sourceFinished(let error):
            guard !isFinishing else { return }
            if let error {
                logger.error("source failed; stopping", ["reason": error])
                sourceFailed = true
                phase = .finishing(deadline: WallTime().addingTimeInterval(options.shutdownFlush))
            } else {
                logger.info("end of input; letting pending exits fire and publishing what is queued")
                draining = true
                drainStep()
            }
        case .signal(let signal):
            handleSignal(signal)
        case .mqtt(let mqtt):
            handleMQTT(mqtt)
        }
    }

    private func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGHUP:
            systemd.reloading()  // systemd (ship)
            reloadConfiguration()
            systemd.ready(status: serviceStatus())  // systemd (ship)
        default:
            guard !isFinishing else { return }
            logger.info(
                "stopping", ["signal": signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "\(signal)"])
            systemd.stopping()  // systemd (ship)
            source.stop()
            queue.close()
            phase = .finishing(deadline: WallTime().addingTimeInterval(options.shutdownFlush))
        }
    }

    private func handleMQTT(_ event: MosquittoClient.Event) {
        switch event {
        case .connected(let generation):
            connectedGeneration = generation
            firstAttemptDone = true
            systemd.status(serviceStatus())  // systemd (ship)
            if everConnected {
                // The broker may have lost retained messages (restart without persistence).
                pipeline.republishRetained(into: &out)
                enqueueOutput()
            }
            everConnected = true
            // The client announced `online` on connect; a degraded source overrides it.
            if degradedReason != nil { publishStatus() }
            if phase == .restoring { subscribeForRestore(generation) }
            announceToHomeAssistant(generation)
        case .disconnected(let generation, _):
            if generation == connectedGeneration {
                delivery.connectionLost()
                connectedGeneration = nil
                systemd.status(serviceStatus())  // systemd (ship)
            }
        case .published(let generation, let mid):
            guard generation == connectedGeneration else { return }
            delivery.published(mid: mid)
        case .subscribed(let generation, let mid):
            guard phase == .restoring, generation == restoreGeneration else { return }
            pendingSubAcks.remove(mid)
            if pendingSubAcks.isEmpty { restoreQuietUntil = WallTime().addingTimeInterval(options.restoreQuiet) }
        case .message(let topic, let payload, _, _) where topic == homeAssistant?.birthTopic:
            // Home Assistant restarted: it forgets discovery that is not retained, so announce again.
            out += homeAssistant?.messages(onBirth: String(decoding: payload, as: UTF8.self)) ?? []
            enqueueOutput()
        case .message(let topic, let payload, _, let isRetained):
            guard phase == .restoring, isRetained, !payload.isEmpty else { return }
            retained[topic] = String(decoding: payload, as: UTF8.self)
            if restoreQuietUntil != nil { restoreQuietUntil = WallTime().addingTimeInterval(options.restoreQuiet) }
        case .connectFailed:
            firstAttemptDone = true
        }
    }

    /// Ingests packets in order while the source may go on (`acceptsSourceEvents`); the rest waits
    /// in `deferred`. Each packet's messages are published at once, so a batch holds none back.
    private func ingest(_ packets: ArraySlice<CapturedPacket>) {
        var rest = packets
        while let packet = rest.first, acceptsSourceEvents {
            rest = rest.dropFirst()
            pipeline.ingest(packet, into: &out)
            if !out.isEmpty {
                enqueueOutput()
                publishQueued()
            }
        }
        if let last = packets[packets.startIndex..<rest.startIndex].last { anchor = (last.timestamp, WallTime()) }
        deferred = rest
    }

    /// After the end of a finite source, the clock runs on (`Pipeline.finish`) until every pending exit
    /// has fired. For a capture this goes one ranging interval at a time, each step only while the
    /// outbox has room, so the final burst of exits cannot overflow it.
    private func drainStep() {
        let step: TimeSpan
        if case .capture = options.timing { step = .milliseconds(100) } else { step = .seconds(1 << 30) }
        let done = pipeline.finish(by: step, into: &out)
        enqueueOutput()
        if done {
            draining = false
            phase = .finishing(deadline: WallTime().addingTimeInterval(options.endOfInputFlush))
        }
    }

    /// A capture can wait for a connected broker, a radio cannot: while a replay's messages fill half
    /// the outbox, its packets wait in the bounded queue (and the replay thread with them), so a replay
    /// at `--speed max` never makes the outbox drop an enter or exit. While the broker is away a replay
    /// runs on like a live source, whose outbox keeps events and coalesces proximity first.
    private var acceptsSourceEvents: Bool {
        guard phase != .restoring else { return false }
        if case .capture = options.timing {
            // Not before the first connection attempt has an outcome, so a replay cannot race ahead
            // of a broker that is merely slow to accept.
            guard firstAttemptDone else { return false }
            if connectedGeneration != nil {
                return delivery.heldCount == 0 && delivery.queuedCount < max(configuration.mqtt.outboxLimit / 2, 1)
            }
        }
        return true
    }

    // MARK: - Home Assistant

    /// Discovery for the configured beacons and regions, when `homeassistant.discovery` is on.
    private var homeAssistant: HomeAssistantDiscovery? {
        guard configuration.homeAssistant.discovery else { return nil }
        return HomeAssistantDiscovery(
            configuration: configuration, settings: configuration.homeAssistant, softwareVersion: Version.string)
    }

    /// On every connect: publish discovery (retained) and listen for Home Assistant's birth message.
    private func announceToHomeAssistant(_ generation: UInt64) {
        guard let discovery = homeAssistant else { return }
        _ = client.subscribe(discovery.birthTopic, qos: 0)
        out += discovery.messages()
        enqueueOutput()
    }

    // MARK: - Restore

    private func subscribeForRestore(_ generation: UInt64) {
        restoreGeneration = generation
        pendingSubAcks = []
        for pattern in restoreSubscriptions {
            guard let mid = client.subscribe(pattern, qos: 1) else { return finishRestore() }
            pendingSubAcks.insert(mid)
        }
    }

    private func finishRestore() {
        guard phase == .restoring else { return }
        if connectedGeneration != nil { for pattern in restoreSubscriptions { client.unsubscribe(pattern) } }
        let messages = retained.sorted { $0.key < $1.key }.map { RetainedMessage(topic: $0.key, payload: $0.value) }
        pipeline.restore(retained: messages, at: wallTimestamp())
        if connectedGeneration == nil {
            logger.warning("broker not reachable at start: states not restored, starting fresh")
        } else {
            logger.info("restored retained states", ["read": String(messages.count)])
        }
        retained = [:]
        phase = .running
        nextAdvance = WallTime()
    }

    // MARK: - Timers

    private func runTimers(_ now: WallTime) {
        if advancesOnTimer, now >= nextAdvance {
            if let time = pipelineNow(now) {
                pipeline.advance(to: time, into: &out)
                enqueueOutput()
            }
            let interval = max(configuration.ranging.interval.seconds, 0.01)
            nextAdvance = max(nextAdvance.addingTimeInterval(interval), now.addingTimeInterval(interval / 10))
        }
        if now >= nextStats {
            publishStats(now)
            nextStats = now.addingTimeInterval(max(configuration.mqtt.statsInterval.seconds, 1))
        }
    }

    /// The pipeline's notion of now: the wall clock, or the capture's time moved on by the wall
    /// clock since the last packet (at the replay speed).
    private func pipelineNow(_ now: WallTime) -> Timestamp? {
        switch options.timing {
        case .wallClock:
            return wallTimestamp(now)
        case .capture(let speed):
            guard let anchor else { return nil }
            guard let speed else { return anchor.packet }
            let elapsed = now.timeIntervalSince(anchor.wall) * speed
            return anchor.packet + TimeSpan(microseconds: Int64(elapsed * 1_000_000))
        }
    }

    private func wallTimestamp(_ date: WallTime = WallTime()) -> Timestamp {
        if options.timing != .wallClock, let anchor { return anchor.packet }
        return Timestamp(microseconds: Int64(date.timeIntervalSince1970 * 1_000_000))
    }

    /// Retained `online` or `degraded` on the status topic (the client itself publishes `online`
    /// on connect and `offline` at a clean stop; the broker's will is `offline`).
    private func publishStatus() {
        delivery.enqueue(
            OutboundMessage(
                topic: client.options.statusTopic, payload: .text(degradedReason == nil ? "online" : "degraded"),
                qos: client.options.statusQoS, retain: true, kind: .status))
    }

    private func publishStats(_ now: WallTime) {
        let stats = pipeline.statistics
        let c = delivery.counters
        let elapsed = max(now.timeIntervalSince(lastStats.at), 0.001)
        var json = JSONWriter()
        json.beginObject()
        json.field("uptime", Int(now.timeIntervalSince(started)))
        json.field("reports", stats.reports)
        json.field("reports_per_s", Double(stats.reports - lastStats.reports) / elapsed)
        json.field("beacons_tracked", stats.beaconsTracked)
        json.field("messages_published", c.published)
        json.field("queued", delivery.queuedCount)
        json.field("dropped", c.dropped + c.coalesced + delivery.rejected)
        json.field("malformed", stats.malformed)
        json.field("reconnects", client.reconnects)
        json.field("degraded", degradedReason)
        json.field("timestamp", wallTimestamp(now).rfc3339)
        json.endObject()
        lastStats = (now, stats.reports)
        let topic = "\(configuration.mqtt.baseTopic)/gateways/\(configuration.gateway.id)/stats"
        delivery.enqueue(OutboundMessage(topic: topic, payload: .json(json.text), qos: 0, retain: true, kind: .stats))
        systemd.status(serviceStatus())  // systemd (ship)
    }

    // MARK: - Publishing

    /// Moves the pipeline's output into the outbox. A replay connected to its broker holds back what
    /// does not fit (one packet can make thousands of messages: a cohort's exits), instead of letting
    /// the outbox drop it; a live source, or a replay while the broker is away, enqueues everything
    /// and the outbox's pressure rules apply.
    private func enqueueOutput() {
        delivery.holdsBack = holdsBackOutput
        delivery.enqueue(out)
        out.removeAll(keepingCapacity: true)
    }

    private var holdsBackOutput: Bool {
        if case .capture = options.timing { return connectedGeneration != nil }
        return false
    }

    private func publishQueued() {
        delivery.holdsBack = holdsBackOutput
        var session = MosquittoSession(client: client)
        for record in delivery.publishQueued(generation: connectedGeneration, to: &session) { logger.log(record) }
    }

    // MARK: - Reload and shutdown

    private func reloadConfiguration() {
        let next: Configuration
        do {
            next = try reload()
        } catch {
            logger.error("reload failed; keeping the running configuration", ["error": "\(error)"])
            return
        }
        if next.mqtt != configuration.mqtt || next.gateway.id != configuration.gateway.id {
            logger.warning("mqtt and gateway.id changes take effect after a restart")
        }
        pipeline.reconfigure(next, at: pipelineNow(WallTime()) ?? wallTimestamp(), into: &out)
        enqueueOutput()
        let previousDiscovery = homeAssistant
        configuration = next
        logger.level = next.logLevel
        if connectedGeneration != nil {
            // Entities of removed beacons and regions disappear from Home Assistant; the rest are refreshed.
            let current = homeAssistant?.messages() ?? []
            let kept = Set(current.map(\.topic))
            out += (previousDiscovery?.removals() ?? []).filter { !kept.contains($0.topic) } + current
            enqueueOutput()
        }
        logger.info("configuration reloaded", ["regions": String(next.regions.count)])
    }

    private func startSource() {
        let source = self.source
        let queue = self.queue
        PosixThread.start(name: "source") {
            var failure: String?
            do {
                try source.run { queue.postFromSource(.source($0)) }
            } catch {
                failure = "\(error)"
            }
            queue.postFromSource(.sourceFinished(error: failure))
        }
    }

    /// systemd (ship): the one-line `STATUS=` that `systemctl status` shows.
    private func serviceStatus() -> String {
        let health = degradedReason.map { "degraded: \($0)" } ?? "scanning"
        let broker = connectedGeneration == nil ? "broker not connected" : "broker connected"
        return "\(health); \(broker); \(pipeline.statistics.beaconsTracked) beacons; \(delivery.queuedCount) queued"
    }

    private func shutDown() -> ExitCode {
        systemd.stopping()  // systemd (ship)
        source.stop()
        queue.close()
        let lost = delivery.queuedCount
        client.stop(timeout: .seconds(2))
        let c = delivery.counters
        logger.info(
            "stopped",
            [
                "published": String(c.published), "dropped": String(c.dropped + c.coalesced + delivery.rejected),
                "unsent": String(lost), "reconnects": String(client.reconnects),
            ])
        return sourceFailed ? options.sourceFailureExitCode : .success
    }
}
