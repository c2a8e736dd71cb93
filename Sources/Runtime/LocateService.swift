import AgentCore
import BeaconCore
import BeaconWire
import Dispatch
import MQTTTransport
import MessageContract
import MetricsTransport
import Platform
import Settings
import Synchronization
import Vocabulary

/// Runs a `Locator` against a broker on the agent's thread shell: `LocatorCore` on a loop thread
/// of its own, fed by an `AgentEventQueue` that libmosquitto's network thread only posts to. It
/// subscribes to every gateway's proximity, exit events and status and to the retained locations
/// (`Locator.subscriptions`), decides the due ticks several times a second and publishes through
/// the gateway's `DeliveryPolicy`: bounded (`pendingLimit`), QoS ≥ 1 held until acknowledged and
/// requeued after a lost connection.
package final class LocateService: Sendable {
    package typealias Clock = LocatorClock

    package let clock: Clock
    /// Most messages held while the broker is unreachable (queued plus unacknowledged). A locator's
    /// first tick places every beacon at once, a location and an event each (and a room with Home
    /// Assistant): 10,000 dropped all but the last 7,500 of a 20,000-beacon site's first 40,000
    /// (issue #18, `beacon2mqtt-bench locator-broker`). 100,000 holds a start of 33,000 beacons
    /// (about 40 MB at most); a larger site is sharded (`locator.shard`).
    package static let pendingLimit = 100_000
    private let queue = AgentEventQueue()
    private let client: MosquittoClient
    private let logger: Logger
    /// The log level, which a reconfiguration may change while the loop thread logs.
    private let level: Mutex<LogLevel>
    /// The core until `start` hands it to the loop thread.
    private let waiting: Mutex<LocatorCore?>
    private let publishedCount = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    /// Where the loop leaves the locator's figures for `/metrics` (metrics.listen).
    private let board: MetricsBoard?

    package init(
        locator: Locator, connection: MQTTConnectionOptions, clock: Clock = .wall, logger: Logger,
        tick: Duration = .milliseconds(200), discovery: HomeAssistantLocatorDiscovery? = nil,
        foreign: ForeignSourceReader? = nil, metrics board: MetricsBoard? = nil, map: Bool = false
    ) {
        self.clock = clock
        self.board = board
        self.logger = logger
        level = Mutex(logger.level)
        waiting = Mutex(
            LocatorCore(
                locator: locator, clock: clock, tick: TimeSpan(tick),
                outboxLimit: Self.pendingLimit, now: MonotonicClock.now(), wall: WallClock.now(),
                discovery: discovery, foreign: foreign, map: map && board != nil,
                cleanSession: connection.cleanSession))
        let queue = self.queue
        var connection = connection
        connection.inFlightWindow = LocatorCore.inFlightWindow
        client = MosquittoClient(options: connection, logger: logger) { events in
            queue.post(contentsOf: events.lazy.map { .mqtt($0) })
        }
    }

    /// A locator for `configuration`'s broker and base topic, on its own session beside a gateway's:
    /// client id `<client_id>-locator`, status `<base>/locators/<gateway.id>/status`. This is what
    /// `locate` runs, and what `run` starts when `locator.enabled` is true.
    package convenience init(
        configuration c: Configuration, settings: LocatorSettings, connection: MQTTConnectionOptions,
        clock: Clock = .wall, logger: Logger, metrics board: MetricsBoard? = nil
    ) {
        var connection = connection
        connection.clientID += "-locator"
        connection.statusTopic = TopicTree(c).locatorStatus
        var locator = Locator(
            settings: settings, baseTopic: c.mqtt.baseTopic, qos: c.mqtt.qos, distance: c.ranging.distance,
            publishesRoom: c.homeAssistant.discovery)
        locator.calibrationTopic = TopicTree(c).locatorCalibration
        locator.readBackTopics = TopicTree(c).locations(of: c.beacons.map(\.identity) + c.devices.map(\.identity))
        self.init(
            locator: locator, connection: connection, clock: clock, logger: logger,
            discovery: HomeAssistantLocatorDiscovery(configuration: c, softwareVersion: Version.string),
            foreign: ForeignSourceReader(
                sources: settings.foreignSources, devices: c.devices, distance: c.ranging.distance),
            metrics: board, map: c.metrics.map)
    }

    /// The shortest time between two maps published to the endpoint (`metrics.map`).
    static let mapRefresh = TimeSpan.milliseconds(500)

    /// Messages published so far (locations, events, mqtt_room): written, or acknowledged at QoS ≥ 1.
    package var published: Int { publishedCount.load(ordering: .relaxed) }

    /// Connects and starts the loop thread; returns at once.
    package func start() {
        guard let initial = waiting.withLock({ $0.take() }) else { return }
        client.start()
        PosixThread.start(name: "locate") { [self] in
            var mapShown = (version: -1, at: MonotonicClock.now())
            let turns = PipelineTurns(
                initial, session: BrokerPortSession(port: client),
                perform: { [logger] _, actions in
                    var logger = logger
                    logger.level = self.level.withLock { $0 }
                    for case .log(let record) in actions { logger.log(record) }
                },
                turned: { core, _ in
                    self.publishedCount.store(core.published, ordering: .relaxed)
                    self.board?.publish(core.metrics)
                    // The map at most `mapRefresh` apart: encoding it is the costliest part of a turn.
                    let now = MonotonicClock.now()
                    if core.mapVersion != mapShown.version,
                        now - mapShown.at >= Self.mapRefresh || mapShown.version < 0,
                        let map = core.liveMap
                    {
                        self.board?.publish(map: map.json)
                        mapShown = (core.mapVersion, now)
                    }
                })
            _ = EventLoop.run(turns, queue: queue)
            publishedCount.store(turns.core.published, ordering: .relaxed)
            finished.signal()
        }
    }

    /// The configuration changed while running (`run`'s embedded locator): hands it to the loop
    /// thread, which applies it between two turns (`LocatorCore`, input `.configuration`).
    package func reconfigure(_ c: Configuration) {
        level.withLock { $0 = c.logLevel }
        queue.post(.configuration(c))
    }

    /// Decides once more, publishes what is due (waiting up to 2 s for acknowledgements), then
    /// disconnects (the client leaves `offline` on its status topic).
    package func stop() {
        guard waiting.withLock({ $0 == nil }), !stopped.exchange(true, ordering: .relaxed) else { return }
        queue.post(.signal(.stop(name: "stop")))
        finished.wait()
        client.stop(timeout: .seconds(2))
    }
}
