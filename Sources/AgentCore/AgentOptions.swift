import BeaconWire
import Vocabulary

/// How the agent runs, beside the configuration: where time comes from and how long it waits.
/// Durations are spans of the monotonic clock.
package struct AgentOptions: Sendable {
    package enum Timing: Sendable, Equatable {
        /// Live and simulated sources: packets carry wall-clock time; timers follow the wall clock.
        case wallClock
        /// A capture: time is the capture's, and the output equals `replay --output jsonl`. With a
        /// speed, timers run at that multiple of the wall clock between packets, never past what
        /// the source has handed over (`SourceEvent.caughtUp`); with nil (`--speed max`) only
        /// packets move time.
        case capture(speed: Double?)
    }

    package var timing: Timing = .wallClock
    /// How much later than its stamp a live source may deliver a packet (`scanner.read_interval`:
    /// reports held in the kernel keep their receive time). The pipeline's timers run this far
    /// behind the steady timeline, so a held report stamped before an exit deadline is in before
    /// that exit would fire; every timed message goes out this much later. Ignored for a capture.
    package var sourceDelay: TimeSpan = .zero
    /// Run a sigwait thread for SIGINT/SIGTERM/SIGHUP (the caller must have blocked them first).
    package var handleSignals = true
    /// SIGTERM/SIGINT: how long to keep publishing what is queued before disconnecting.
    package var shutdownFlush: TimeSpan = .seconds(5)
    /// End of a capture or simulation: how long to wait for the outbox to drain (and the broker to
    /// come back) before exiting.
    package var endOfInputFlush: TimeSpan = .seconds(30)
    /// At start, how long to wait for the broker and our retained `attributes` topics.
    package var restoreTimeout: TimeSpan = .seconds(3)
    /// … and how long after the last retained message the read-back counts as complete.
    package var restoreQuiet: TimeSpan = .milliseconds(300)
    /// At most this many QoS ≥ 1 messages unacknowledged at once.
    package var inFlightWindow = 64
    /// With `mqtt.require_broker_at_start`, how long the first connection may take.
    package var brokerStartTimeout: TimeSpan = .seconds(10)
    /// The source advertises what `advertise:` says (the live adapter): announce it, retained.
    package var announcesAdvertising = false
    /// The version the gateway announces (Home Assistant discovery's `sw_version`).
    package var softwareVersion = ""

    package init(timing: Timing = .wallClock) { self.timing = timing }
}
