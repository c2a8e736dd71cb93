import AgentCore
import BeaconCore
import BeaconWire
import Glibc
import Platform
import Synchronization
import Vocabulary

/// How an `HCIControllerLoop` waits, retries and reports.
package struct HCILoopOptions: Sendable {
    /// Upper bound of one blocking wait: the procedure is ticked at least this often.
    /// (`stop()` ends a wait at once.)
    package var pollInterval: TimeSpan = .milliseconds(250)
    package var reopenBackoffMin: TimeSpan = .seconds(1)
    package var reopenBackoffMax: TimeSpan = .seconds(30)
    /// Throw instead of waiting when the first open fails (interactive commands).
    package var failIfAbsentAtStart = false
    /// Throw when the procedure fails (a command rejected) instead of reopening and trying again.
    package var endOnFailure = false
    /// Also deliver the commands sent (as outgoing packets), as a capture would hold them.
    package var deliverCommands = true
    /// Packets read in one go at most: a full batch is handed over and the procedure's deadlines
    /// run before the socket is read again.
    package var batchLimit = 64
    /// How long the socket is left once a read found it empty (`scanner.read_interval`): the kernel
    /// queues what arrives meanwhile, stamped with its receive time, so a busy gateway wakes a few
    /// times a second instead of once a report. `.fixed(.zero)` reads each packet as it arrives.
    package var readPacing: ReadPacing.Policy = .adaptive
    package init() {}
}

/// Where time comes from: the wall clock stamps packets (in `system`, the steady one the pipeline's
/// deadlines follow, `SteadyWallClock`), the monotonic one drives timeouts.
package struct HCIClock: Sendable {
    package var wall: @Sendable () -> Timestamp
    package var monotonic: @Sendable () -> MonotonicInstant
    /// CLOCK_REALTIME, the clock of the kernel's receive times (`HCITransport.receivedAt`): a packet
    /// held in the socket is stamped `wall()` less its age by this clock.
    package var realtime: @Sendable () -> Timestamp
    package init(
        wall: @escaping @Sendable () -> Timestamp, monotonic: @escaping @Sendable () -> MonotonicInstant,
        realtime: @escaping @Sendable () -> Timestamp = {
            Timestamp(microseconds: SystemClock.microseconds(CLOCK_REALTIME))
        }
    ) {
        self.wall = wall
        self.monotonic = monotonic
        self.realtime = realtime
    }

    package static let system = HCIClock(
        wall: { SteadyWallClock.now() },
        monotonic: { MonotonicClock.now() })
}

/// Runs one `HCIProcedure` on a live adapter until stopped: opens it, drives the procedure, and
/// delivers every HCI packet (events in, commands out) stamped with the wall clock.
///
/// Faults it survives without returning: the adapter absent, unplugged, powered off or silent. It
/// reports `.health(.degraded(reason:))`, logs the loss once, backs off (1 s doubling to 30 s),
/// reopens through `opener` (which resolves the adapter again, so by address after an index
/// change), starts the procedure again and carries on. Only missing Bluetooth support and missing
/// privilege end the loop with an `HCIError` (and, with `endOnFailure`, a rejected command).
package final class HCIControllerLoop<Procedure: HCIProcedure>: Sendable {
    package typealias Opener = @Sendable () throws(HCIError) -> any HCITransport
    package typealias Log = @Sendable (LogLevel, String) -> Void

    /// The loop's own counters; the procedure keeps its own.
    package struct Counters: Sendable, Equatable {
        package var advertisingReportEvents = 0
        package var adapterLosses = 0
        package var reopens = 0
        /// Opens that failed while waiting for the adapter (absent, down, blocked).
        package var failedOpens = 0
        package init() {}
    }

    private let opener: Opener
    private let options: HCILoopOptions
    private let clock: HCIClock
    private let log: Log
    private let stopping = StopSignal()
    private let state: Mutex<(procedure: Procedure, counters: Counters)>
    /// Changes to the running procedure from other threads, applied by the loop's thread.
    private let changes = Mutex<[@Sendable (inout Procedure, MonotonicInstant) -> [Procedure.Action]]>([])

    package init(
        _ procedure: Procedure, opener: @escaping Opener, options: HCILoopOptions, clock: HCIClock, log: @escaping Log
    ) {
        self.opener = opener
        self.options = options
        self.clock = clock
        self.log = log
        self.state = Mutex((procedure, Counters()))
    }

    /// The procedure as of its last action (for its statistics).
    package var procedure: Procedure { state.withLock { $0.procedure } }
    package var counters: Counters { state.withLock { $0.counters } }

    package func stop() { stopping.stop() }

    /// Runs `change` on the procedure on the loop's thread (within one poll interval) and performs
    /// the actions it returns; while no adapter is open it waits for the next session.
    package func apply(_ change: @escaping @Sendable (inout Procedure, MonotonicInstant) -> [Procedure.Action]) {
        changes.withLock { $0.append(change) }
    }

    private var isStopping: Bool { stopping.isStopped }

    /// Room reserved per hand-over: a few advertising reports (about 60 bytes each with the
    /// batch's header) before the buffer grows.
    private static var batchBytes: Int { 1024 }

    private enum SessionEnd {
        case stopped
        case lost(HCIError)
        case failed(ControllerFailure)
    }

    package func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws(HCIError) {
        var procedure = state.withLock { $0.procedure }
        var health = HealthReporter(deliver: deliver)
        var backoff = options.reopenBackoffMin
        var opened = false
        // The outage being reported: one log line and one health reason per outage, however many
        // retries it takes; cleared once the procedure runs again.
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
                state.withLock { $0.counters.failedOpens += 1 }
                // Still the same outage when the adapter just has not come back yet.
                let reason = outage ?? error.description
                report(reason, .warning, "adapter unavailable: \(error.description); retrying")
                sleep(backoff)
                backoff = min(backoff * 2, options.reopenBackoffMax)
                continue
            }
            if opened { state.withLock { $0.counters.reopens += 1 } }
            opened = true
            var reachedRunning = false
            let end: SessionEnd
            do {
                end = try session(transport, &procedure, &health, &reachedRunning, deliver)
            } catch {
                transport.close()
                throw error
            }
            transport.close()
            if reachedRunning {
                backoff = options.reopenBackoffMin
                outage = nil
            }
            switch end {
            case .stopped:
                return
            case .lost(let error):
                state.withLock { $0.counters.adapterLosses += 1 }
                report(error.description, .warning, "\(error.description); will reopen")
            case .failed(let failure):
                if options.endOnFailure { throw HCIError(kind: .rejected, operation: failure.description) }
                report(failure.description, .error, "set-up failed: \(failure); will reopen")
            }
            guard !isStopping else { return }
            sleep(backoff)
            backoff = min(backoff * 2, options.reopenBackoffMax)
        }
    }

    /// One open transport, from set-up to stop or loss.
    private func session(
        _ transport: any HCITransport, _ procedure: inout Procedure, _ health: inout HealthReporter,
        _ reachedRunning: inout Bool, _ deliver: @escaping @Sendable (SourceEvent) -> Void
    ) throws(HCIError) -> SessionEnd {
        var stopRequested = false
        // Held reads: each packet keeps the kernel's receive time, or (refused) the time it is read.
        var pacing = ReadPacing(options.readPacing)
        let holding = pacing.longestHold > .zero
        let kernelTimes = holding && transport.holdPackets(for: pacing.longestHold)
        /// Packets read since the socket was last found empty (the pacing's arrival rate).
        var readSinceDrain = 0
        if holding && !kernelTimes {
            log(.warning, "the kernel attaches no receive times; held reports are stamped when read")
        }
        /// Until when (monotonic) the socket is left to queue: set when a read found it empty.
        var holdUntil: MonotonicInstant?
        var actions = procedure.start(at: clock.monotonic())
        while true {
            if let end = try perform(actions, transport, &procedure, &health, &reachedRunning, deliver) {
                return end
            }
            if isStopping, !stopRequested {
                stopRequested = true
                actions = procedure.stop(at: clock.monotonic())
                continue
            }
            var wait = options.pollInterval
            if let deadline = procedure.nextDeadline {
                wait = min(wait, max(.zero, deadline - clock.monotonic()))
            }
            // A held read sleeps first, never past the procedure's next deadline or the poll
            // interval: cut short by one, it ticks and holds on next time round. A stop ends it.
            var read = true
            if let until = holdUntil, !stopRequested {
                let left = until - clock.monotonic()
                if left > .zero {
                    let hold = min(wait, left)
                    _ = stopping.sleep(for: .microseconds(hold.microseconds))
                    wait = TimeSpan(microseconds: wait.microseconds - hold.microseconds)
                    read = hold >= left || isStopping
                }
                if read { holdUntil = nil }
            }
            // What the socket already holds goes over with the packet that woke the wait: one
            // hand-over (one wake-up of the pipeline) for a burst instead of one per report, and no
            // wait added to the first. Each packet is read straight into the batch's one buffer.
            var batch = PacketBatch(reservingBytes: Self.batchBytes)
            actions = []
            // The clocks, read once per hand-over: a held packet is stamped its age before `wall`.
            // An age past the longest a packet can wait means CLOCK_REALTIME was stepped (NTP) since
            // the kernel stamped it: that packet is stamped when read.
            var readAt: (wall: Timestamp, realtime: Timestamp)?
            func take(_ raw: UnsafeRawBufferPointer) {
                var stamp: Timestamp?
                if kernelTimes, let received = transport.receivedAt {
                    let now = readAt ?? (clock.wall(), clock.realtime())
                    readAt = now
                    let age = now.realtime - received
                    if age <= pacing.longestHold + .seconds(1) { stamp = now.wall - max(.zero, age) }
                }
                let time = stamp ?? clock.wall()
                // Framed once, here: an LE Meta event (an advertising report) goes over marked, and
                // the pipeline reads its reports without framing it again.
                let framedLEMeta = handle(raw, &procedure, &actions)
                batch.append(timestamp: time, incoming: true, bytes: raw, framedLEMetaEvent: framedLEMeta)
            }
            do {
                // The stop wakes this wait at once. Its pipe then stays readable, so the procedure's
                // stop handshake that follows waits on the socket alone.
                if read {
                    _ = try transport.receive(timeout: wait, unlessStopped: stopRequested ? nil : stopping, take)
                }
            } catch {
                if error.isFatal { throw error }
                return stopRequested ? .stopped : .lost(error)
            }
            if !batch.isEmpty {
                let began = clock.monotonic()
                var failure: HCIError?
                var emptied = false
                while batch.count < options.batchLimit {
                    do {
                        guard try transport.receive(timeout: .zero, unlessStopped: nil, take) else {
                            // Emptied: let it fill as the pacing says (once the scan runs, so
                            // set-up's command round trips are not held). A full batch reads on at once.
                            if holding && reachedRunning {
                                let hold = pacing.drained(reports: readSinceDrain + batch.count, at: began)
                                holdUntil = hold > .zero ? began + hold : nil
                                emptied = true
                            }
                            break
                        }
                    } catch {
                        failure = error
                        break
                    }
                }
                readSinceDrain = emptied ? 0 : readSinceDrain + batch.count
                deliver(.packets(batch))
                if let failure {
                    if failure.isFatal { throw failure }
                    return stopRequested ? .stopped : .lost(failure)
                }
            }
            actions += procedure.tick(at: clock.monotonic())
            for change in changes.withLock({ pending in
                defer { pending.removeAll() }
                return pending
            }) {
                actions += change(&procedure, clock.monotonic())
            }
        }
    }

    /// Counts an advertising report and lets the procedure see a controller event; true when the
    /// packet is a well-framed LE Meta event (`PacketView.isFramedLEMetaEvent`). A packet that does
    /// not frame is left to the pipeline, which counts it malformed.
    private func handle(
        _ packet: UnsafeRawBufferPointer, _ procedure: inout Procedure, _ actions: inout [Procedure.Action]
    ) -> Bool {
        guard let event = try? HCIPacketDecoder.controllerEvent(in: packet) else { return false }
        if event.isAdvertisingReport { state.withLock { $0.counters.advertisingReportEvents += 1 } }
        actions += procedure.handle(event, at: clock.monotonic())
        if case .leMeta = event { return true }
        return false
    }

    /// Performs the procedure's actions; returns how the session ends, if it does.
    private func perform(
        _ actions: [Procedure.Action], _ transport: any HCITransport, _ procedure: inout Procedure,
        _ health: inout HealthReporter, _ reachedRunning: inout Bool,
        _ deliver: @escaping @Sendable (SourceEvent) -> Void
    ) throws(HCIError) -> SessionEnd? {
        defer { state.withLock { [procedure] in $0.procedure = procedure } }
        for action in actions {
            switch Procedure.effect(of: action) {
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
            case .running(let level, let line):
                reachedRunning = true
                log(level, line)
                health.report(nil)
            case .log(let level, let line):
                log(level, line)
            case .advertising(let state):
                deliver(.advertising(state))
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
extension HCIControllerLoop: PacketSource {}
