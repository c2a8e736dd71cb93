import AgentCore
import BeaconCore
import BeaconWire
import Glibc
import Platform
import Synchronization

/// The live adapter as a `PacketSource`: opens it, drives the `ScanController`, and delivers every
/// HCI packet (events in, commands out) stamped with the wall clock.
///
/// Faults it survives without returning: the adapter absent, unplugged, powered off or silent. It
/// reports `.health(.degraded(reason:))`, logs the loss once, backs off (1 s doubling to 30 s),
/// reopens through `opener` (which resolves the adapter again, so by address after an index
/// change), sets the scan up again and carries on. Only missing Bluetooth support and missing
/// privilege end `run` with an `HCIError`.
package final class HCISource: PacketSource {
    /// Opens the transport for the configured adapter; called again after every loss.
    package typealias Opener = @Sendable () throws(HCIError) -> any HCITransport
    package typealias Log = @Sendable (LogLevel, String) -> Void

    package struct Options: Sendable {
        /// Upper bound of one blocking wait: the scan controller is ticked at least this often.
        /// (`stop()` ends a wait at once.)
        package var pollInterval: TimeSpan = .milliseconds(250)
        package var reopenBackoffMin: TimeSpan = .seconds(1)
        package var reopenBackoffMax: TimeSpan = .seconds(30)
        /// Throw instead of waiting when the first open fails (interactive commands).
        package var failIfAbsentAtStart = false
        /// Also deliver the commands sent (as outgoing packets), as a capture would hold them.
        package var deliverCommands = true
        package init() {}
    }

    /// Where time comes from: the wall clock stamps packets, the monotonic one drives timeouts.
    package struct Clock: Sendable {
        package var wall: @Sendable () -> Timestamp
        package var monotonic: @Sendable () -> Timestamp
        package init(wall: @escaping @Sendable () -> Timestamp, monotonic: @escaping @Sendable () -> Timestamp) {
            self.wall = wall
            self.monotonic = monotonic
        }

        package static let system = Clock(
            wall: { Timestamp(microseconds: SystemClock.microseconds(CLOCK_REALTIME)) },
            monotonic: { Timestamp(microseconds: SystemClock.microseconds(CLOCK_MONOTONIC)) })
    }

    package struct Statistics: Sendable, Equatable {
        package var scan = ScanController.Statistics()
        package var advertisingReportEvents = 0
        package var adapterLosses = 0
        package var reopens = 0
        /// Opens that failed while waiting for the adapter (absent, down, blocked).
        package var failedOpens = 0
        package init() {}
    }

    private let opener: Opener
    private let configuration: ScanConfiguration
    private let options: Options
    private let clock: Clock
    private let log: Log
    private let stopping = StopSignal()
    private let stats = Mutex(Statistics())

    package init(
        opener: @escaping Opener, configuration: ScanConfiguration, options: Options = Options(),
        clock: Clock = .system, log: @escaping Log = { _, _ in }
    ) {
        self.opener = opener
        self.configuration = configuration
        self.options = options
        self.clock = clock
        self.log = log
    }

    /// The live adapter `selection`, resolved on every (re)open.
    package convenience init(
        adapter selection: HCIAdapterSelection, configuration: ScanConfiguration, options: Options = Options(),
        log: @escaping Log = { _, _ in }
    ) {
        self.init(
            opener: { () throws(HCIError) in try HCIAdapterDirectory.open(selection) }, configuration: configuration,
            options: options, log: log)
    }

    package var statistics: Statistics { stats.withLock { $0 } }

    package func stop() { stopping.stop() }

    private var isStopping: Bool { stopping.isStopped }

    private enum SessionEnd {
        case stopped
        case lost(HCIError)
        case failed(ScanController.ScanFailure)
    }

    package func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws {
        var controller = ScanController(configuration: configuration)
        var health = HealthReporter(deliver: deliver)
        var backoff = options.reopenBackoffMin
        var opened = false
        // The outage being reported: one log line and one health reason per outage, however many
        // retries it takes; cleared once the scan runs again.
        var outage: String?
        func report(_ reason: String, _ level: LogLevel, _ line: String) {
            log(outage == reason ? .debug : level, line)
            outage = reason
            health.report(reason)
        }
        while !isStopping {
            let transport: any HCITransport
            do {
                transport = try opener()
            } catch {
                if error.isFatal || (!opened && options.failIfAbsentAtStart) { throw error }
                stats.withLock { $0.failedOpens += 1 }
                // Still the same outage when the adapter just has not come back yet.
                let reason = outage ?? error.description
                report(reason, .warning, "adapter unavailable: \(error.description); retrying")
                sleep(backoff)
                backoff = min(backoff * 2, options.reopenBackoffMax)
                continue
            }
            if opened { stats.withLock { $0.reopens += 1 } }
            opened = true
            var reachedScanning = false
            let end: SessionEnd
            do {
                end = try session(transport, &controller, &health, &reachedScanning, deliver)
            } catch {
                transport.close()
                throw error
            }
            transport.close()
            if reachedScanning {
                backoff = options.reopenBackoffMin
                outage = nil
            }
            switch end {
            case .stopped:
                return
            case .lost(let error):
                stats.withLock { $0.adapterLosses += 1 }
                report(error.description, .warning, "\(error.description); will reopen")
            case .failed(let failure):
                report(failure.description, .error, "scan set-up failed: \(failure); will reopen")
            }
            guard !isStopping else { return }
            sleep(backoff)
            backoff = min(backoff * 2, options.reopenBackoffMax)
        }
    }

    /// One open transport, from set-up to stop or loss.
    private func session(
        _ transport: any HCITransport, _ controller: inout ScanController, _ health: inout HealthReporter,
        _ reachedScanning: inout Bool, _ deliver: @escaping @Sendable (SourceEvent) -> Void
    ) throws(HCIError) -> SessionEnd {
        var stopRequested = false
        var actions = controller.start(at: clock.monotonic())
        while true {
            if let end = try perform(actions, transport, &controller, &health, &reachedScanning, deliver) {
                return end
            }
            if isStopping, !stopRequested {
                stopRequested = true
                actions = controller.stop(at: clock.monotonic())
                continue
            }
            var wait = options.pollInterval
            if let deadline = controller.nextDeadline {
                wait = min(wait, max(.zero, deadline - clock.monotonic()))
            }
            let packet: [UInt8]?
            do {
                // The stop wakes this wait at once. Its pipe then stays readable, so the controller's
                // disable handshake that follows waits on the socket alone.
                packet = try transport.receive(timeout: wait, unlessStopped: stopRequested ? nil : stopping)
            } catch {
                if error.isFatal { throw error }
                return stopRequested ? .stopped : .lost(error)
            }
            actions = []
            if let packet {
                deliver(.packet(CapturedPacket(timestamp: clock.wall(), bytes: packet, incoming: true)))
                if let event = try? HCIPacketDecoder.controllerEvent(packet) {
                    if event.isAdvertisingReport { stats.withLock { $0.advertisingReportEvents += 1 } }
                    actions = controller.handle(event, at: clock.monotonic())
                }
            }
            actions += controller.tick(at: clock.monotonic())
        }
    }

    /// Performs the controller's actions; returns how the session ends, if it does.
    private func perform(
        _ actions: [ScanController.Action], _ transport: any HCITransport, _ controller: inout ScanController,
        _ health: inout HealthReporter, _ reachedScanning: inout Bool,
        _ deliver: @escaping @Sendable (SourceEvent) -> Void
    ) throws(HCIError) -> SessionEnd? {
        defer { stats.withLock { $0.scan = controller.statistics } }
        for action in actions {
            switch action {
            case .send(let command):
                log(.debug, "sending \(command)")
                do {
                    try transport.send(command.packet)
                } catch {
                    if error.isFatal { throw error }
                    return isStopping ? .stopped : .lost(error)
                }
                if options.deliverCommands {
                    deliver(.packet(CapturedPacket(timestamp: clock.wall(), bytes: command.packet, incoming: false)))
                }
            case .scanning(let set):
                reachedScanning = true
                log(.info, set.map { "scanning with the \($0.rawValue) LE commands" } ?? "listening (no commands sent)")
                health.report(nil)
            case .note(let note):
                switch note {
                case .usingCommandSet, .silent: log(.debug, note.description)
                case .commandDisallowedTolerated: log(.info, note.description)
                default: log(.warning, note.description)
                }
            case .stopped:
                return .stopped
            case .failed(let failure):
                return .failed(failure)
            }
        }
        return nil
    }

    /// Sleeps `span`, waking at once on `stop()`.
    private func sleep(_ span: TimeSpan) { stopping.sleep(for: .microseconds(span.microseconds)) }
}

/// Delivers `.health` only when it changes.
private struct HealthReporter {
    let deliver: @Sendable (SourceEvent) -> Void
    var last: String?? = .none

    mutating func report(_ reason: String?) {
        if case .some(let previous) = last, previous == reason { return }
        last = .some(reason)
        deliver(.health(reason.map { .degraded(reason: $0) } ?? .healthy))
    }
}
