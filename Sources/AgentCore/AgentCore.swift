import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Vocabulary

/// The `run` daemon's state machine, without threads, sockets or clocks: the shell (Runtime's
/// `Agent`) feeds it inputs (`handle`) and the time (`tick`) and carries out what it returns
/// (`takeActions`), and answers its publishes through a `BrokerSession`. Pieces:
/// `DeliveryPolicy` (outbox lanes, held queue, windows), `RestoreSession`, `AgentStatistics`, the
/// broker link (`BrokerLink`), the source intake (`SourceIntake`), the ranging pacer
/// (`RangingPacer`) and the clocks (`AgentClock`); back-pressure (`takesSourceEvents`) and the
/// phases live here.
///
/// Time: `now` is monotonic (deadlines, timers, rates, and for a live source the pipeline's clock);
/// `wall` only stamps payloads (AgentCore+Time).
package struct AgentCore<Pipeline: MessagePipeline> {
    package internal(set) var configuration: Configuration
    package private(set) var phase: AgentPhase
    /// Readable for tests; only the core changes it.
    package internal(set) var pipeline: Pipeline
    let options: AgentOptions
    private(set) var delivery: DeliveryPolicy
    private var restore: RestoreSession
    private var statistics: AgentStatistics
    private var link: BrokerLink
    private var intake = SourceIntake()
    private var pacer: RangingPacer
    private(set) var clock: AgentClock
    var actions: [AgentAction] = []
    var out: [OutboundMessage] = []
    /// Configuration over MQTT, when `remote_config.enabled` (see AgentCore+RemoteConfiguration).
    var remote: RemoteConfiguration?
    /// The radio's state for `advertise:` (nil: not reported yet) and the payload last announced.
    var advertising: (state: AdvertisingState?, announced: String?) = (nil, nil)
    package var sourceHealth: SourceHealth { intake.health }
    package var isConnected: Bool { link.isConnected }
    var now: MonotonicInstant { clock.now }
    var wall: Timestamp { clock.wall }

    /// Set once the loop should end: clean, or with the source's failure.
    package var termination: AgentTermination? {
        guard phase == .ended else { return nil }
        return intake.failure.map { .sourceFailed($0) } ?? .clean
    }

    /// - Parameters:
    ///   - statusTopic, statusQoS: the session's availability topic (`degraded` goes there).
    ///   - remote: configuration over MQTT (`remote_config.enabled`), nil when off.
    ///   - steadyOrigin: both clocks at the moment a live source's steady timeline starts (the
    ///     shell's `SteadyWallClock`); by default `now` and `wall`.
    package init(
        configuration: Configuration, pipeline: Pipeline, options: AgentOptions, statusTopic: String, statusQoS: Int,
        now: MonotonicInstant, wall: Timestamp, remote: RemoteConfiguration? = nil,
        steadyOrigin: (now: MonotonicInstant, wall: Timestamp)? = nil
    ) {
        self.remote = remote
        self.configuration = configuration
        self.pipeline = pipeline
        self.pipeline.defersRanging = true
        self.options = options
        link = BrokerLink(status: (statusTopic, statusQoS))
        clock = AgentClock(now: now, wall: wall, origin: steadyOrigin ?? (now, wall))
        pacer = RangingPacer(now: now)
        delivery = DeliveryPolicy(outboxLimit: configuration.mqtt.outboxLimit, inFlightWindow: options.inFlightWindow)
        restore = RestoreSession(
            subscriptions: RestoreSession.subscriptions(for: configuration),
            deadline: now + options.restoreTimeout, quiet: options.restoreQuiet)
        statistics = AgentStatistics(started: now, interval: configuration.mqtt.statsInterval)
        // A capture has a clock of its own: states saved by a live run (or a previous replay) say
        // nothing about it, and restoring them would make a replay's output depend on the broker.
        phase = options.timing == .wallClock ? .restoring : .running
    }

    // MARK: - Observing

    package var counters: AgentCounters {
        AgentCounters(
            outbox: delivery.counters, queued: delivery.queuedCount, pipeline: pipeline.statistics,
            reconnects: link.reconnects, rejected: delivery.rejected)
    }

    /// Removed without being published: coalesced, dropped, refused.
    package var dropped: Int { delivery.counters.dropped + delivery.counters.coalesced + delivery.rejected }

    /// The shell may take source events (packets, the source's end) now.
    package var takesSourceEvents: Bool { acceptsSourceEvents && intake.deferred == nil }

    /// When the shell should call `tick` at the latest if no input arrives (at most a second away).
    package var nextWake: MonotonicInstant {
        var wake = now + .seconds(1)
        if let due = remote?.nextDue(after: now) { wake = min(wake, due) }
        switch phase {
        case .restoring: return min(wake, restore.completion)
        case .finishing(let deadline): return min(wake, deadline, now + .milliseconds(50))
        case .running, .draining:
            if link.isConnected, let slice = nextSlice { wake = min(wake, slice) }
            return min(wake, statistics.nextDue ?? wake, advancesOnTimer ? pacer.nextAdvance : wake)
        case .ended: return wake
        }
    }

    /// systemd's one-line `STATUS=` that `systemctl status` shows.
    package var serviceStatus: String {
        let health = intake.health.degradedReason.map { "degraded: \($0)" } ?? "scanning"
        let broker = link.isConnected ? "broker connected" : "broker not connected"
        return "\(health); \(broker); \(pipeline.statistics.beaconsTracked) beacons; \(delivery.queuedCount) queued"
    }

    /// What the core asks of the shell since the last call.
    package mutating func takeActions() -> [AgentAction] {
        defer { actions.removeAll(keepingCapacity: true) }
        return actions
    }

    // MARK: - Time

    /// One turn of the loop before waiting: ends, restore deadline, timers, draining, deferred packets.
    package mutating func tick<Session: BrokerSession>(
        at now: MonotonicInstant, wall: Timestamp, _ session: inout Session
    ) {
        set(now, wall)
        if case .finishing(let deadline) = phase, delivery.isIdle || now >= deadline {
            phase = .ended
            return
        }
        if phase == .restoring, restore.isComplete(at: now) { finishRestore(&session) }
        if remote != nil { requestDueLayers() }
        if phase == .running || phase == .draining { runTimers() }
        while phase == .draining, acceptsSourceEvents {
            drainStep()
            publishQueued(&session)
        }
        if let deferred = intake.deferred, acceptsSourceEvents {
            ingest(deferred.batch, from: deferred.offset, &session)
        }
        publishQueued(&session)
    }

    private mutating func set(_ now: MonotonicInstant, _ wall: Timestamp) {
        clock.set(now, wall)
        pipeline.setPayloadClockOffset(payloadClockOffset)
    }

    /// How far a capture's clock may run between packets (`SourceIntake.captureHorizon`).
    var captureHorizon: Timestamp? { intake.captureHorizon(newest: clock.anchor?.packet) }

    private var advancesOnTimer: Bool {
        options.timing != .capture(speed: nil) && (phase == .running || phase == .draining)
    }

    private mutating func runTimers() {
        if advancesOnTimer, pacer.advanceIsDue(at: now, interval: configuration.ranging.interval) {
            if let time = pipelineNow {
                pipeline.advance(to: time, into: &out)
                enqueueOutput()
            }
        }
        if statistics.isDue(at: now, interval: configuration.mqtt.statsInterval) { publishStats() }
    }

    // MARK: - Inputs

    package mutating func handle<Session: BrokerSession>(
        _ input: AgentInput, at now: MonotonicInstant, wall: Timestamp, _ session: inout Session
    ) {
        set(now, wall)
        switch input {
        case .source(.packets(let batch)): ingest(batch, from: 0, &session)
        case .source(.health(let health)): healthChanged(health)
        case .source(.advertising(let state)): advertisingChanged(state)
        case .source(.caughtUp(let time)): intake.caughtUp(to: time)
        case .source(.end): break
        case .sourceFinished(let failure): sourceFinished(failure)
        case .signal(.reload): actions += [.notify(.reloading), .readConfiguration]
        case .signal(.stop(let name)):
            guard !isFinishing else { break }
            log(.info, "stopping", ["signal": name])
            actions += [.notify(.stopping), .stopSource]
            // The last tick's deferred slices join the outbox, which gets shutdown_flush to send them.
            pipeline.composeDeferred(upTo: .max, into: &out)
            enqueueOutput()
            advertisingChanged(.stopped)
            phase = .finishing(deadline: now + options.shutdownFlush)
        case .mqtt(let event): handleBroker(event, &session)
        case .configuration: break  // the core's own comes through `reloaded` and `layerApplied`
        }
        publishQueued(&session)
    }

    private var isFinishing: Bool {
        switch phase {
        case .finishing, .ended: true
        case .restoring, .running, .draining: false
        }
    }

    private mutating func healthChanged(_ health: SourceHealth) {
        guard health != intake.health else { return }
        switch health {
        case .degraded(let reason): log(.warning, "source degraded", ["reason": reason])
        case .healthy: log(.info, "source healthy again")
        }
        intake.health = health
        announceAdvertising(onlyIfChanged: true)
        publishStatus()
        actions.append(.notify(.status(serviceStatus)))
    }

    private mutating func sourceFinished(_ failure: (any SourceFailure)?) {
        guard !isFinishing else { return }
        if let failure {
            log(.error, "source failed; stopping", ["reason": failure.description])
            intake.failure = failure
            phase = .finishing(deadline: now + options.shutdownFlush)
        } else {
            log(.info, "end of input; letting pending exits fire and publishing what is queued")
            phase = .draining
            drainStep()
        }
    }

    private mutating func handleBroker<Session: BrokerSession>(_ event: BrokerEvent, _ session: inout Session) {
        switch event {
        case .connected(let generation):
            let reconnect = link.connected(generation)
            actions.append(.notify(.status(serviceStatus)))
            if reconnect {
                // The broker may have lost retained messages (restart without persistence).
                pipeline.republishRetained(into: &out)
                enqueueOutput()
            }
            // The session announced `online` on connect; a degraded source overrides it.
            if intake.health != .healthy { publishStatus() }
            if phase == .restoring, !restore.subscribe(generation: generation, on: &session) { finishRestore(&session) }
            announceToHomeAssistant(&session)
            connectRemoteConfiguration(generation: generation, &session)
            announceAdvertising()
        case .disconnected(let generation, _):
            guard link.disconnected(generation) else { return }
            delivery.connectionLost()
            actions.append(.notify(.status(serviceStatus)))
        case .published(let generation, let mid):
            guard link.isLive(generation) else { return }
            delivery.published(mid: mid)
        case .subscribed(let generation, let mid):
            subscribedRemoteConfiguration(generation: generation, mid: mid)
            guard phase == .restoring else { return }
            restore.subscribed(generation: generation, mid: mid, at: now)
        case .message(let topic, let payload, _, _) where topic == homeAssistant?.birthTopic:
            // Home Assistant restarted: it forgets discovery that is not retained, so announce again.
            out += homeAssistant?.messages(onBirth: String(decoding: payload, as: UTF8.self)) ?? []
            enqueueOutput()
        case .message(let topic, let payload, _, let retained):
            if receivedRemoteConfiguration(topic: topic, payload: payload) { return }
            guard phase == .restoring else { return }
            restore.received(topic: topic, payload: payload, retained: retained, at: now)
        case .connectFailed:
            link.attemptFailed()
        }
    }

    // MARK: - Source

    /// Ingests packets in order while the source may go on (`acceptsSourceEvents`); the rest waits
    /// in `deferred`. Each packet's messages are published at once, so a batch holds none back.
    private mutating func ingest<Session: BrokerSession>(
        _ batch: PacketBatch, from offset: Int, _ session: inout Session
    ) {
        let rest: Int? = batch.withPackets(from: offset) { packets in
            var last: Timestamp?
            // What it reads (phase, connection, outbox) changes only when messages are queued and
            // published, so it is asked again only then (once a packet it cost about 60 instructions).
            var accepts = acceptsSourceEvents
            while accepts, let packet = packets.next() {
                last = packet.timestamp
                pipeline.ingest(packet, into: &out)
                if !out.isEmpty {
                    enqueueOutput()
                    publishQueued(&session)
                    accepts = acceptsSourceEvents
                }
            }
            if let last { clock.anchor = (last, now) }
            return packets.isAtEnd ? nil : packets.offset
        }
        intake.deferred = rest.map { (batch, $0) }
    }

    /// After the end of a finite source, the clock runs on (`Pipeline.finish`) until every pending exit
    /// has fired. For a capture this goes one ranging interval at a time, each step only while the
    /// outbox has room, so the final burst of exits cannot overflow it.
    private mutating func drainStep() {
        let step: TimeSpan
        if case .capture = options.timing { step = .milliseconds(100) } else { step = .seconds(1 << 30) }
        let done = pipeline.finish(by: step, into: &out)
        enqueueOutput()
        if done { phase = .finishing(deadline: now + options.endOfInputFlush) }
    }

    private var acceptsSourceEvents: Bool {
        BackPressure.acceptsSourceEvents(
            phase: phase, timing: options.timing, firstAttemptDone: link.firstAttemptDone,
            connected: link.isConnected, delivery: delivery, outboxLimit: configuration.mqtt.outboxLimit)
    }

    // MARK: - Restore and Home Assistant

    private mutating func finishRestore<Session: BrokerSession>(_ session: inout Session) {
        guard phase == .restoring else { return }
        if link.isConnected { for pattern in restore.subscriptions { session.unsubscribe(pattern) } }
        let messages = restore.messages
        let before = out.count
        pipeline.restore(retained: messages, at: pipelineNow ?? payloadTime, into: &out)
        let cleared = out.count - before
        enqueueOutput()
        if !link.isConnected {
            log(.warning, "broker not reachable at start: states not restored, starting fresh")
        } else {
            log(.info, "restored retained states", ["read": String(messages.count)])
        }
        if cleared > 0 {
            log(
                .info, "cleared retained topics of regions and beacons no longer configured",
                ["topics": String(cleared)])
        }
        phase = .running
        pacer.advanceNow(now)
    }

    /// Discovery for the configured beacons and regions, when `homeassistant.discovery` is on.
    var homeAssistant: HomeAssistantDiscovery? {
        guard configuration.homeAssistant.discovery else { return nil }
        return HomeAssistantDiscovery(
            configuration: configuration, settings: configuration.homeAssistant,
            softwareVersion: options.softwareVersion)
    }

    /// On every connect: publish discovery (retained) and listen for Home Assistant's birth message.
    private mutating func announceToHomeAssistant<Session: BrokerSession>(_ session: inout Session) {
        guard let discovery = homeAssistant else { return }
        _ = session.subscribe(discovery.birthTopic, qos: 0)
        out += discovery.legacyRemovals() + discovery.messages()
        enqueueOutput()
    }

    // MARK: - Publishing

    /// Retained `online` or `degraded` on the status topic (the client itself publishes `online`
    /// on connect and `offline` at a clean stop; the broker's will is `offline`).
    private mutating func publishStatus() {
        if let status = link.status(healthy: intake.health == .healthy) { delivery.enqueue(status) }
    }

    private mutating func publishStats() {
        let payload = statistics.payload(
            at: now, wall: payloadTime, pipeline: pipeline.statistics, published: delivery.counters.published,
            queued: delivery.queuedCount, dropped: dropped, reconnects: link.reconnects,
            degraded: intake.health.degradedReason, scanner: configuration.bluetooth.scanner)
        delivery.enqueue(
            OutboundMessage(
                topic: TopicTree(configuration).gatewayStats, payload: .json(payload), qos: 0, retain: true,
                kind: .stats))
        actions.append(.notify(.status(serviceStatus)))
    }

    /// A replay connected to its broker holds back what does not fit (one packet can make thousands
    /// of messages: a cohort's exits) instead of letting the outbox drop it.
    private var holdsBackOutput: Bool {
        if case .capture = options.timing { return link.isConnected }
        return false
    }

    mutating func enqueueOutput() {
        delivery.holdsBack = holdsBackOutput
        delivery.enqueue(out)
        out.removeAll(keepingCapacity: true)
    }

    private mutating func publishQueued<Session: BrokerSession>(_ session: inout Session) {
        composeDeferred()
        delivery.holdsBack = holdsBackOutput
        for record in delivery.publishQueued(generation: link.generation, to: &session) {
            actions.append(.log(record))
        }
    }

    /// Composes as much of the pipeline's deferred ranging tick as the pacer lets out now, so a
    /// tick's burst is composed in slices between the loop's other inputs (an enter heard meanwhile
    /// goes out ahead of the rest). Not connected, it waits; the next tick pushes it into the
    /// outbox (GatewayPipeline's Pipeline+DeferredRanging).
    private mutating func composeDeferred() {
        guard
            let n = pacer.slice(
                of: pipeline.deferredOutput, tick: pipeline.deferredTicks, at: pipelineNow,
                interval: configuration.ranging.interval, room: delivery.expendableRoom, connected: link.isConnected)
        else { return }
        pipeline.composeDeferred(upTo: n, into: &out)
        enqueueOutput()
    }

    /// When the next slice of a deferred tick is due on the monotonic clock (a capture replayed at
    /// full speed has no clock between its packets: its slices go with the packets).
    var nextSlice: MonotonicInstant? {
        guard let ahead = pacer.nextSlice(of: pipeline.deferredOutput, at: pipelineNow) else { return nil }
        switch options.timing {
        case .wallClock: return now + ahead
        case .capture(let speed?): return now + TimeSpan(microseconds: Int64(Double(ahead.microseconds) / speed))
        case .capture(nil): return nil
        }
    }

    mutating func log(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        actions.append(.log(LogRecord(level, message, fields)))
    }
}
