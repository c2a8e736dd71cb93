import AgentCore
import BeaconCore
import BeaconWire
import CLI
import Foundation
import MessageContract
import Settings
import Synchronization
import Vocabulary

@testable import MQTTTransport
@testable import Platform
@testable import Runtime

/// Runs an `Agent` with a `ScriptedPipeline` on its own thread, as `run` does on the main thread,
/// on libmosquitto's session to `configuration`'s broker or on the `broker` port given.
/// Signals are injected through the agent's queue (the harness runs no sigwait thread).
final class AgentHarness: Sendable {
    let recorder: PipelineRecorder
    let lines = LogLines()
    private final class Shared: Sendable {
        let queue = Mutex<AgentEventQueue?>(nil)
        let result = Mutex<(ExitCode, AgentCounters)?>(nil)
    }
    private let shared = Shared()

    init(
        configuration: Configuration, source: ScriptedSource, options: AgentOptions = AgentOptions(timing: .wallClock),
        burst: Int = 0, burstKind: OutboundMessage.Kind = .event, broker: (any BrokerPort)? = nil,
        reload: @escaping @Sendable () throws -> Configuration = { throw ReloadRefused() }
    ) throws {
        let connection = try MQTTConnectionOptions(configuration: configuration)
        var scripted = ScriptedPipeline()
        scripted.burst = burst
        scripted.burstKind = burstKind
        let pipeline = scripted
        recorder = pipeline.recorder
        var adjusted = options
        adjusted.handleSignals = false
        let agentOptions = adjusted
        let lines = self.lines
        let shared = self.shared
        let thread = Thread {
            let logger = Logger(level: .debug, sink: lines.append)
            let agent =
                if let broker {
                    Agent(
                        configuration: configuration, broker: broker, pipeline: pipeline, source: source,
                        options: agentOptions, logger: logger, reload: reload)
                } else {
                    Agent(
                        configuration: configuration, connection: connection, pipeline: pipeline, source: source,
                        options: agentOptions, logger: logger, reload: reload)
                }
            shared.queue.withLock { $0 = agent.queue }
            let code = agent.run()
            shared.result.withLock { $0 = (code, agent.counters) }
        }
        thread.start()
        _ = waitUntil(timeout: 5) { shared.queue.withLock { $0 != nil } }
    }

    struct ReloadRefused: Error {}

    func signal(_ signal: Int32) { shared.queue.withLock { $0 }?.post(.signal(SignalWatcher.signal(signal))) }

    /// Source events whose turn the source thread ran itself (`AgentEventQueue.borrowForSource`).
    var sourceTurnsRun: Int { shared.queue.withLock { $0 }?.sourceTurnsRun ?? 0 }

    /// The exit code and final counters once `run` returned within `timeout` seconds.
    func wait(timeout: Double) -> (ExitCode, AgentCounters)? {
        _ = waitUntil(timeout: timeout) { shared.result.withLock { $0 != nil } }
        return shared.result.withLock { $0 }
    }

    static func configuration(port: Int, gateway: String = "gw1") -> Configuration {
        var c = Configuration()
        c.gateway.id = gateway
        c.mqtt.host = "127.0.0.1"
        c.mqtt.port = port
        c.mqtt.reconnect.minimum = .milliseconds(200)
        c.mqtt.reconnect.maximum = .seconds(1)
        return c
    }
}
