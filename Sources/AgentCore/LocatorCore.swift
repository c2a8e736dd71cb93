import BeaconCore
import BeaconWire
import MessageContract
import MetricsContract
import Settings
import Vocabulary

/// `locate`'s state machine on the agent's shape: feeds what the broker sends to a `Locator`,
/// decides the due ticks every `tick` (monotonic) and publishes through the same
/// `DeliveryPolicy` as the gateway, so its output is bounded, acknowledged (QoS ≥ 1) and
/// requeued after a lost connection. A stop decides once more, then flushes until the outbox is
/// acknowledged or `flush` seconds passed.
package struct LocatorCore: AgentMachine {
    package private(set) var locator: Locator
    package private(set) var termination: AgentTermination?
    private let clock: LocatorClock
    private var delivery: DeliveryPolicy
    /// The tick period, the next tick, and a stop's flush.
    private var cadence: LocatorCadence
    private var link = BrokerLink()
    private var actions: [AgentAction] = []
    /// Both clocks, and where they started.
    private var time: AgentClock
    /// How far the wall clock was from the steady timeline (the start's wall clock moved on by the
    /// monotonic one) when the locator last followed a step of it.
    private var wallOffset = TimeSpan(microseconds: 0)
    private var now: MonotonicInstant { time.now }
    private var wall: Timestamp { time.wall }
    /// Home Assistant discovery for the beacons' room trackers (nil: `homeassistant.discovery` off).
    private var discovery: HomeAssistantLocatorDiscovery?
    /// What discovery says the software is, kept for a discovery that is switched on later.
    private let softwareVersion: String
    /// Other projects' receivers (`locator.foreign_sources`), read as extra gateways.
    private var foreign: ForeignSourceReader
    /// The live map's tracks (`metrics.map`); nil: the map is off and nothing is kept for it.
    private var trails: LiveMapTrails?
    /// Decisions taken, counted while the map is on: the map changed when this did.
    package private(set) var mapVersion = 0
    /// The readings' subscriptions' QoS: 1 for a persistent session, whose broker queues them while
    /// the locator is away; 0 for a clean one, which keeps nothing across a reconnect anyway, and which
    /// a clustered broker then serves on any node (RabbitMQ keeps a QoS 1 subscription's queue durable
    /// on the node that made it, and refuses the client elsewhere while that node is down).
    private let subscriptionQoS: Int

    package init(
        locator: Locator, clock: LocatorClock, tick: TimeSpan, outboxLimit: Int, flush: TimeSpan = .seconds(2),
        now: MonotonicInstant,
        wall: Timestamp, discovery: HomeAssistantLocatorDiscovery? = nil, foreign: ForeignSourceReader? = nil,
        map: Bool = false, cleanSession: Bool = false
    ) {
        trails = map ? LiveMapTrails() : nil
        subscriptionQoS = cleanSession ? 0 : 1
        self.foreign =
            foreign ?? ForeignSourceReader(sources: locator.settings.foreignSources, distance: locator.distance)
        self.locator = locator
        self.discovery = discovery.flatMap { $0.settings.discovery ? $0 : nil }
        softwareVersion = discovery?.softwareVersion ?? ""
        self.clock = clock
        cadence = LocatorCadence(period: tick, flush: flush, start: now)
        delivery = DeliveryPolicy(outboxLimit: outboxLimit, inFlightWindow: Self.inFlightWindow)
        time = AgentClock(now: now, wall: wall, origin: (now, wall))
    }

    /// QoS ≥ 1 messages unacknowledged at once (the session is given the same, `MQTTConnectionOptions.inFlightWindow`).
    /// A locator's first tick at a fresh site places every beacon at once, a location and an event
    /// each: at 20,000 beacons through 64 (and libmosquitto's default of 20 on the wire) those 40,000
    /// took 8.7 s, one broker round trip per 20, and every later decision waited behind them (issue
    /// #18, `beacon2mqtt-bench locator-broker`). Every message stays in the outbox until acknowledged,
    /// so a lost connection still sends them again.
    package static let inFlightWindow = 1024

    /// Messages published (QoS 0 written, QoS ≥ 1 acknowledged).
    package var published: Int { delivery.counters.published }
    package var counters: Outbox.Counters { delivery.counters }
    /// What became of the foreign sources' messages.
    package var foreignCounters: ForeignSourceReader.Counters { foreign.counters }
    package var queuedCount: Int { delivery.queuedCount }

    package var takesSourceEvents: Bool { false }

    /// What `/metrics` shows of the locator.
    package var metrics: LocatorMetrics {
        LocatorMetrics(
            locations: locator.locatedCount, changes: locator.counts.changes, unknown: locator.unknownCount,
            gateways: locator.knownGateways.map { .init(gateway: $0, up: locator.hears($0)) },
            broker: BrokerMetrics(connected: link.isConnected, reconnects: link.reconnects),
            clocks: locator.clocks.all.map {
                .init(
                    gateway: $0.gateway, offset: Double($0.clock.offset.microseconds) / 1e6,
                    skewed: $0.clock.state != .ok)
            },
            lateReadings: locator.clocks.late, malformed: locator.counts.malformed,
            foreignMessages: foreign.counters.byOutcome.map { .init(outcome: $0.outcome, count: $0.count) })
    }

    /// What the live map shows now; nil while it is off.
    package var liveMap: LiveMap? { trails.map { locator.liveMap(trails: $0, at: wall) } }

    package var nextWake: MonotonicInstant {
        guard let finishing = cadence.finishing else { return cadence.next }
        return min(finishing, now + .milliseconds(50))
    }

    package mutating func takeActions() -> [AgentAction] {
        defer { actions.removeAll(keepingCapacity: true) }
        return actions
    }

    package mutating func tick<Session: BrokerSession>(
        at now: MonotonicInstant, wall: Timestamp, _ session: inout Session
    ) {
        set(now, wall)
        if let finishing = cadence.finishing {
            if delivery.isIdle || now >= finishing { termination = .clean }
            return publishQueued(&session)
        }
        if now >= cadence.next {
            decide()
            cadence.next = max(
                cadence.next + cadence.period, now + TimeSpan(microseconds: cadence.period.microseconds / 10))
            // On the wall clock, wake when the next tick falls due rather than up to `tick` later, so
            // a location goes out `settle` after its tick (issue #18: p99 ≤ settle + 50 ms).
            if clock == .wall, let due = locator.nextDue {
                cadence.next = min(cadence.next, now + max(due - wall, .milliseconds(1)))
            }
        }
        publishQueued(&session)
    }

    package mutating func handle<Session: BrokerSession>(
        _ input: AgentInput, at now: MonotonicInstant, wall: Timestamp, _ session: inout Session
    ) {
        set(now, wall)
        switch input {
        case .mqtt(.connected(let generation)):
            if link.connected(generation) {
                // The broker may have lost the retained locations (a restart without persistence, a crash).
                var out: [OutboundMessage] = []
                locator.retainedLocations(into: &out)
                delivery.enqueue(out)
            }
            for pattern in locator.subscriptions + foreign.subscriptions {
                _ = session.subscribe(pattern, qos: subscriptionQoS)
            }
            actions.append(.log(LogRecord(.info, "locator subscribed", ["base_topic": locator.baseTopic])))
            if let discovery {
                _ = session.subscribe(discovery.birthTopic, qos: 0)
                delivery.enqueue(discovery.messages())
            }
        case .mqtt(.disconnected(let generation, _)):
            guard link.disconnected(generation) else { break }
            delivery.connectionLost()
        case .mqtt(.published(let generation, let mid)):
            guard link.isLive(generation) else { break }
            delivery.published(mid: mid)
        case .mqtt(.message(let topic, let payload, _, _)) where topic == discovery?.birthTopic:
            // Home Assistant restarted: announce again.
            delivery.enqueue(discovery?.messages(onBirth: String(decoding: payload, as: UTF8.self)) ?? [])
        case .mqtt(.message(let topic, let payload, _, _)):
            if let outcome = foreign.read(topic: topic, payload: payload, at: foreignStamp) {
                readForeign(outcome, topic: topic)
            } else {
                // On the wall clock each gateway's clock is checked against it (`GatewayClocks`).
                locator.handle(
                    topic: topic, payload: String(decoding: payload, as: UTF8.self),
                    received: clock == .wall ? wall : nil)
            }
            // On the messages' clock a tick is due once a reading passed it by `settle`: decided at
            // once, not at the next turn's tick, so a backlog read faster than real time (a replay at
            // speed, a bridge draining) is decided tick by tick as it arrives.
            if clock == .messages, let due = locator.nextDue, let newest = locator.timeline.newestReading, newest >= due
            {
                decide()
            }
        case .signal(.stop):
            guard cadence.finishing == nil else { break }
            decide()
            cadence.finishing = now + cadence.flush
        case .configuration(let c):
            reconfigure(c, &session)
        case .mqtt(.connectFailed), .mqtt(.subscribed), .signal(.reload), .source, .sourceFinished:
            break
        }
        publishQueued(&session)
    }

    /// When a foreign message counts: it carries no timestamp, so it is stamped on arrival by the
    /// locator's clock — the wall clock, or with `--clock messages` the newest reading's timestamp.
    private var foreignStamp: Timestamp {
        switch clock {
        case .wall: wall
        case .messages: locator.timeline.newestReading ?? wall
        }
    }

    private mutating func readForeign(_ outcome: ForeignSourceReader.Outcome, topic: String) {
        switch outcome {
        case .reading(let r, let device):
            locator.observe(r, device: device)
        case .status(let gateway, let online):
            locator.setGateway(gateway, online: online)
        case .ignored(let reason):
            // Bad input from another project's node changes nothing: counted, and told at debug level.
            actions.append(.log(LogRecord(.debug, "foreign message ignored", ["topic": topic, "reason": reason])))
        }
    }

    /// A step of the wall clock shifts the locator's whole timeline (`Locator.shiftTimeline`): decisions
    /// follow the wall clock, as the readings' timestamps do, while every timeout runs on the
    /// monotonic clock. Differences under `LocatorCore.stepThreshold` are the two reads' jitter.
    private mutating func set(_ now: MonotonicInstant, _ wall: Timestamp) {
        time.set(now, wall)
        guard clock == .wall else { return }
        let steady = time.origin.wall + (self.now - time.origin.now)
        let offset = wall - steady
        let step = TimeSpan(microseconds: offset.microseconds - wallOffset.microseconds)
        guard abs(step.microseconds) >= Self.stepThreshold.microseconds else { return }
        wallOffset = offset
        locator.shiftTimeline(by: step)
        actions.append(
            .log(
                LogRecord(
                    .info, "wall clock stepped; locator timeline moved with it",
                    ["seconds": String(Double(step.microseconds) / 1e6)])))
    }

    /// The smallest wall-clock step the locator follows (smaller differences are jitter between the reads).
    static let stepThreshold = TimeSpan.milliseconds(500)

    /// The configuration changed while running (`run`'s embedded locator): the rule's settings,
    /// QoS, distance model and room topic apply from the next tick, every track and location is
    /// kept, and Home Assistant discovery follows (removed beacons' entities go, the rest is
    /// refreshed). The base topic is the session's and needs a restart.
    private mutating func reconfigure<Session: BrokerSession>(_ c: Configuration, _ session: inout Session) {
        var out: [OutboundMessage] = []
        locator.reconfigure(
            settings: c.locator, qos: c.mqtt.qos, distance: c.ranging.distance,
            publishesRoom: c.homeAssistant.discovery,
            into: &out)
        let next = ForeignSourceReader(
            sources: c.locator.foreignSources, devices: c.devices, distance: c.ranging.distance,
            counters: foreign.counters)
        if link.isConnected, next.subscriptions != foreign.subscriptions {
            for pattern in foreign.subscriptions where !next.subscriptions.contains(pattern) {
                session.unsubscribe(pattern)
            }
            for pattern in next.subscriptions where !foreign.subscriptions.contains(pattern) {
                _ = session.subscribe(pattern, qos: subscriptionQoS)
            }
        }
        foreign = next
        let announced = HomeAssistantLocatorDiscovery(configuration: c, softwareVersion: softwareVersion)
        let current = announced.settings.discovery ? announced.messages() : []
        if link.isConnected {
            let kept = Set(current.map(\.topic))
            out += (discovery?.removals() ?? []).filter { !kept.contains($0.topic) } + current
            if discovery?.birthTopic != announced.birthTopic, announced.settings.discovery {
                _ = session.subscribe(announced.birthTopic, qos: 0)
            }
        }
        discovery = announced.settings.discovery ? announced : nil
        delivery.enqueue(out)
    }

    /// Decides the ticks due by the locator's clock.
    private mutating func decide() {
        let time: Timestamp?
        switch clock {
        case .wall: time = wall
        case .messages: time = locator.timeline.newestReading
        }
        guard let time else { return }
        var out: [OutboundMessage] = []
        locator.advance(to: time, into: &out)
        delivery.enqueue(out)
        if trails != nil {
            locator.record(&trails!)
            mapVersion += 1
        }
    }

    private mutating func publishQueued<Session: BrokerSession>(_ session: inout Session) {
        for record in delivery.publishQueued(generation: link.generation, to: &session) {
            actions.append(.log(record))
        }
    }
}
