import AgentCore
import BeaconCore
import BeaconWire
import GatewayPipeline
import Glibc
import MQTTTransport
import MessageContract
import MetricsTransport
import Platform
import Settings
import SystemdTransport
import Vocabulary

/// The `run` daemon's thread shell around `AgentCore`: the calling thread (the pipeline thread)
/// owns the core and feeds it from one `AgentEventQueue`, which the source thread, the MQTT network
/// thread and the signal thread post to; it carries out the core's actions (logs, systemd, stopping
/// the source, reading the configuration) and adapts its `BrokerPort` as the core's `BrokerSession`.
/// Sources come in as `any PacketSource` and the broker as `any BrokerPort`: tests run the shell
/// with both in memory.
/// Timers are deadlines of the queue wait on the monotonic clock. See docs/internals.md, "Threading model".
package final class Agent<Pipeline: MessagePipeline> {
    package let queue = AgentEventQueue()
    private var core: AgentCore<Pipeline>
    private let source: any PacketSource
    private let options: AgentOptions
    private var logger: Logger
    private let reload: () throws -> Configuration
    /// The layers set over MQTT (`remote_config.enabled`), nil when off.
    private let layering: (any ConfigurationLayering)?
    private let broker: any BrokerPort
    // systemd (ship): READY/STATUS/RELOADING/STOPPING through sd_notify, and WATCHDOG=1 fed by
    // this loop's own turns (PipelineWatchdog), so a wedged loop gets the service restarted.
    private let systemd = SystemdNotifier(environment: ProcessEnvironment.current())
    private lazy var watchdog = PipelineWatchdog(notifier: systemd)
    /// STOPPING=1 goes out once: on the core's stop (a signal) or, failing that, at shutdown.
    private var stoppingNotified = false
    /// Whether the source thread is running (it leaves the controller as found before it ends):
    /// `shutDown` waits for it, or the process could exit in the middle of that stop handshake.
    private let sourceRunning = WaitableState(false)
    private var metrics: MetricsPublisher?
    /// `run`'s locator (`locator.enabled`), which follows reloads and layers; nil for no locator at all.
    private let locator: EmbeddedLocator?

    /// - Parameters:
    ///   - reload: re-reads the configuration for SIGHUP; a thrown error keeps the old one.
    ///   - metrics: where to publish the figures `/metrics` shows (metrics.listen), and the
    ///     source's `adapter` label.
    ///   - layering: with `remote_config.enabled`, the layers (SIGHUP then reloads through it), and
    ///     the document and layers it starts with.
    ///   - locator: the embedded locator; the agent starts it (when `locator.enabled`) and stops it.
    ///   - broker: the session to the broker; it announces `online`/`offline` itself (the live
    ///     one's will and status topic), and the agent starts and stops it.
    package init(
        configuration: Configuration, broker: any BrokerPort, pipeline: Pipeline, source: any PacketSource,
        options: AgentOptions, logger: Logger, metrics: (board: MetricsBoard, adapter: String)? = nil,
        reload: @escaping () throws -> Configuration,
        layering: (layers: any ConfigurationLayering, start: ConfigurationUpdate)? = nil,
        locator: EmbeddedLocator? = nil
    ) {
        self.locator = locator
        let remote = layering.map {
            RemoteConfiguration(topics: TopicTree(configuration), applied: $0.start.layers, document: $0.start.document)
        }
        var coreOptions = options
        coreOptions.softwareVersion = Version.string
        core = AgentCore(
            configuration: configuration, pipeline: pipeline, options: coreOptions,
            statusTopic: TopicTree(configuration).gatewayStatus, statusQoS: max(configuration.mqtt.qos, 1),
            now: MonotonicClock.now(),
            wall: WallClock.now(), remote: remote,
            // The live source stamps packets on this same steady timeline.
            steadyOrigin: (SteadyWallClock.originMonotonic, SteadyWallClock.originWall))
        self.layering = layering?.layers
        self.source = source
        self.options = options
        self.logger = logger
        self.reload = reload
        self.metrics = metrics.map { MetricsPublisher(board: $0.board, adapter: $0.adapter, source: source) }
        self.broker = broker
    }

    /// An agent on libmosquitto's session to `connection`'s broker.
    package convenience init(
        configuration: Configuration, connection: MQTTConnectionOptions, pipeline: Pipeline, source: any PacketSource,
        options: AgentOptions, logger: Logger, metrics: (board: MetricsBoard, adapter: String)? = nil,
        reload: @escaping () throws -> Configuration,
        layering: (layers: any ConfigurationLayering, start: ConfigurationUpdate)? = nil,
        locator: EmbeddedLocator? = nil
    ) {
        // libmosquitto's own limit (20 unacknowledged QoS 1 messages) would hold back what the
        // delivery policy lets out beyond it in a second queue of its own.
        var connection = connection
        connection.inFlightWindow = options.inFlightWindow
        self.init(
            configuration: configuration, broker: MosquittoClient(options: connection, logger: logger),
            pipeline: pipeline, source: source, options: options, logger: logger, metrics: metrics, reload: reload,
            layering: layering, locator: locator)
    }

    package var configuration: Configuration { core.configuration }

    /// What the outbox and the pipeline have counted so far.
    package var counters: AgentCounters { core.counters }

    /// Runs until SIGTERM/SIGINT or the end of the source; returns the process exit code.
    package func run() -> ExitCode {
        logger.info(
            "starting",
            ["gateway": configuration.gateway.id, "broker": broker.endpoint, "version": Version.string])
        let queue = self.queue
        broker.start { events in queue.post(contentsOf: events.lazy.map { .mqtt($0) }) }
        if configuration.mqtt.requireBrokerAtStart, !broker.waitForFirstAttempt(timeout: options.brokerStartTimeout) {
            logger.error(
                "broker unavailable at start (mqtt.require_broker_at_start)",
                ["broker": broker.endpoint, "reason": broker.lastFailure ?? "timeout"])
            broker.stop(timeout: .seconds(1))
            return .unavailable
        }
        if options.handleSignals { SignalWatcher.start(posting: queue) }
        // The core is the turns' while the loop runs (a source thread may run a turn), and back
        // here for the shutdown.
        let turns = PipelineTurns(
            core, session: BrokerPortSession(port: broker),
            perform: { core, actions in self.perform(actions, on: &core) },
            turned: { [watchdog] core, posted in
                watchdog?.loopTurned()  // systemd (ship): at least once a second
                self.metrics?.turned(core, posted: posted)
            })
        startSource(turns)
        locator?.apply(configuration)
        systemd.ready(status: core.serviceStatus)  // systemd (ship)
        let termination = EventLoop.run(turns, queue: queue)
        core = turns.core
        return shutDown(termination)
    }

    private func perform(_ actions: [AgentAction], on core: inout AgentCore<Pipeline>) {
        for action in actions {
            switch action {
            case .log(let record): logger.log(record)
            case .notify(.ready(let status)): systemd.ready(status: status)
            case .notify(.status(let status)): systemd.status(status)
            case .notify(.reloading): systemd.reloading()
            case .notify(.stopping): notifyStopping()
            case .stopSource:
                source.stop()
                queue.close()
            case .readConfiguration:
                if let layering {
                    core.reloaded(update: Result { try layering.reloadFile() })
                } else {
                    core.reloaded(Result { try reload() })
                }
                perform(core.takeActions(), on: &core)
            case .applyConfigurationLayer(let layer, let payload, let source):
                guard let layering else { break }
                core.layerApplied(
                    layer, source: source, layering.apply(layer, payload: payload, source: source, at: WallClock.now()))
                perform(core.takeActions(), on: &core)
            case .advertise(let settings):
                source.advertise(settings)
            case .setLogLevel(let level):
                logger.level = level
            case .configureLocator(let c):
                locator?.apply(c)
            }
        }
    }

    /// Starts the source's thread. Its events go to the queue, or, when the pipeline thread waits
    /// with nothing queued, through a turn the source thread runs itself (`PipelineTurns`).
    private func startSource(_ turns: PipelineTurns<AgentCore<Pipeline>>) {
        let source = self.source
        let queue = self.queue
        let running = sourceRunning
        running.withLock { $0 = true }
        PosixThread.start(name: "source") {
            defer { running.withLock { $0 = false } }
            var failure: (any SourceFailure)?
            do {
                try source.run { event in
                    if let lend = queue.borrowForSource() {
                        let turn = turns.sourceTurn(event, posted: MonotonicClock.now(), holding: lend)
                        queue.returnFromSource(lend, after: turn)
                    } else {
                        queue.postFromSource(.source(event))
                    }
                }
            } catch let error as any SourceFailure {
                failure = error
            } catch {
                failure = UnexpectedSourceError(error)
            }
            queue.postFromSource(.sourceFinished(failure))
        }
    }

    private func notifyStopping() {
        guard !stoppingNotified else { return }
        stoppingNotified = true
        systemd.stopping()
    }

    private func shutDown(_ termination: AgentTermination) -> ExitCode {
        notifyStopping()  // systemd (ship)
        source.stop()
        queue.close()
        // An HCI source disables advertising and scanning before it returns: a few commands, each
        // with its own timeout (2 s by default), so 8 s is a bound a hung controller cannot pass.
        if !sourceRunning.wait(for: .seconds(8), for: { !$0 }) {
            logger.warning("the source did not stop in time; the adapter may be left scanning")
        }
        let lost = core.counters.queued
        broker.stop(timeout: .seconds(2))
        locator?.stop()
        let c = core.counters
        logger.info(
            "stopped",
            [
                "published": String(c.outbox.published), "dropped": String(core.dropped), "unsent": String(lost),
                "reconnects": String(c.reconnects),
            ])
        return ExitCode(termination)
    }
}
