/// Drives one controller's LE scan: set-up, fallback, watchdog, reset and stop, as a value type
/// whose mutating functions return the actions the caller performs (the I/O layer sends the bytes,
/// feeds back every event and calls `tick` when `nextDeadline` passes).
///
/// Set-up (active/passive): Read Local Supported Commands (§7.4.2) picks the extended commands when
/// both LE Set Extended Scan Parameters and Enable are supported (§6.27 octet 37 bits 5–6), else the
/// legacy ones. Then: disable scan, set parameters, enable with duplicate filtering off. The two
/// command sets are never mixed within a set-up (Vol 4, Part E, §3.1.1): a rejected extended command
/// switches the whole sequence to legacy, and it stays legacy from then on.
/// `Command Disallowed (0x0C)` on enable/disable means another host (bluetoothd) already put the scan
/// in that state; it is tolerated and reported as a note.
///
/// Faults: a command without Complete/Status within `commandTimeout` → HCI Reset and set-up again
/// (once; a second timeout fails). A Hardware Error event (§7.7.16) → HCI Reset and set-up again.
/// After every HCI Reset the event masks are restored (Set Event Mask with LE Meta, LE Set Event
/// Mask with the advertising reports), since the reset defaults leave LE Meta events off; a
/// controller rejecting them is noted and set-up carries on.
/// No advertising report for `watchdog` while scanning → disable+enable; still nothing → HCI Reset;
/// still nothing → the period doubles (up to 8×) so a quiet site is not reset every minute.
/// `listen` mode sends nothing at all, ever.
import Vocabulary

public struct ScanController: Sendable {
    public typealias CommandSet = LECommandSet

    public enum Action: Sendable, Equatable {
        /// Send this command; its Command Complete/Status is awaited until `nextDeadline`.
        case send(HCICommand)
        /// The scan is running (nil command set: listen mode, nothing was sent).
        case scanning(CommandSet?)
        /// The scan is disabled (or was never enabled); the transport may be closed.
        case stopped
        /// Something worth logging happened.
        case note(Note)
        /// This controller cannot scan right now: close, back off, reopen, `start` again.
        case failed(ScanFailure)
    }

    public enum Note: Sendable, Equatable, CustomStringConvertible {
        case usingCommandSet(CommandSet)
        case commandDisallowedTolerated(HCIOpcode)
        case fallingBackToLegacy(rejected: HCIOpcode, status: HCIStatus)
        case retryingWithoutCodedPHY(status: HCIStatus)
        case commandTimedOut(HCIOpcode)
        case hardwareError(code: UInt8)
        case eventMaskRejected(HCIOpcode, HCIStatus)
        case watchdogReenable(silentFor: TimeSpan)
        case watchdogReset(silentFor: TimeSpan)
        /// Listen mode: no report for a watchdog period; nothing is sent.
        case silent(for: TimeSpan)

        public var description: String {
            switch self {
            case .usingCommandSet(let set): return "using the \(set.rawValue) LE scan commands"
            case .commandDisallowedTolerated(let op):
                return
                    "\(op) answered \(HCIStatus.commandDisallowed): another host already set the scan state; carrying on"
            case .fallingBackToLegacy(let op, let status):
                return "\(op) rejected with \(status); falling back to the legacy LE scan commands"
            case .retryingWithoutCodedPHY(let status):
                return "extended scan parameters with LE Coded rejected with \(status); retrying with LE 1M only"
            case .commandTimedOut(let op): return "\(op) got no Command Complete/Status in time"
            case .hardwareError(let code): return "controller reported Hardware Error 0x\(Hex.string([code]))"
            case .eventMaskRejected(let op, let status): return "\(op) after reset failed: \(status); carrying on"
            case .watchdogReenable(let span): return "no advertising report for \(span); re-enabling the scan"
            case .watchdogReset(let span): return "no advertising report for \(span); resetting the controller"
            case .silent(let span): return "listen mode: no advertising report for \(span)"
            }
        }
    }

    public typealias ScanFailure = ControllerFailure

    /// Counters for the stats topic and the logs.
    public struct Statistics: Sendable, Equatable {
        public var setups = 0
        public var commandTimeouts = 0
        public var hardwareErrors = 0
        public var fallbacks = 0
        public var commandDisallowedTolerated = 0
        public var watchdogReenables = 0
        public var watchdogResets = 0
        public init() {}
    }

    private enum Step: Sendable, Equatable {
        case readSupportedCommands, reset, setEventMask, leSetEventMask, disable, parameters, enable, stopDisable
    }

    private enum Phase: Sendable, Equatable {
        case idle
        case awaiting(Step, HCIOpcode, deadline: MonotonicInstant)
        case scanning
        case stopped
        case failed
    }

    public let configuration: ScanConfiguration
    public private(set) var statistics = Statistics()
    public private(set) var commandSet: CommandSet?
    private var phase: Phase = .idle
    private var remaining: [Step] = []
    private var includeCoded: Bool
    /// Sticky after one fallback: the extended commands are not tried again on this controller.
    private var legacyOnly = false
    private var resetSinceScanning = false
    private var lastReport = MonotonicInstant(nanoseconds: 0)
    /// 0 = quiet so far, 1 = re-enabled, 2 = reset; beyond, the period doubles per silent cycle.
    private var escalation = 0

    public init(configuration: ScanConfiguration) {
        self.configuration = configuration
        self.includeCoded = configuration.scanCodedPHY
    }

    public var isScanning: Bool { phase == .scanning }
    public var isStopped: Bool { phase == .stopped }

    /// The opcode whose Command Complete/Status is awaited.
    public var pendingOpcode: HCIOpcode? {
        if case .awaiting(_, let opcode, _) = phase { return opcode }
        return nil
    }

    /// When `tick` must be called next: the pending command's timeout or the watchdog.
    public var nextDeadline: MonotonicInstant? {
        switch phase {
        case .awaiting(_, _, let deadline): return deadline
        case .scanning: return configuration.watchdog.microseconds > 0 ? lastReport + watchdogPeriod : nil
        default: return nil
        }
    }

    private var watchdogPeriod: TimeSpan {
        configuration.watchdog * Int64(1 << min(max(escalation - 1, 0), 3))
    }

    /// Begins (or, after the adapter was reopened, restarts) the set-up.
    public mutating func start(at now: MonotonicInstant) -> [Action] {
        lastReport = now
        escalation = 0
        resetSinceScanning = false
        commandSet = nil
        includeCoded = configuration.scanCodedPHY
        if configuration.mode == .listen {
            phase = .scanning
            return [.scanning(nil)]
        }
        statistics.setups += 1
        remaining = [.readSupportedCommands, .disable, .parameters, .enable]
        return advance(at: now)
    }

    /// Disables the scan. The caller keeps feeding events until `.stopped`.
    public mutating func stop(at now: MonotonicInstant) -> [Action] {
        guard configuration.mode != .listen, let set = commandSet else {
            phase = .stopped
            return [.stopped]
        }
        switch phase {
        case .idle, .stopped, .failed:
            phase = .stopped
            return [.stopped]
        case .awaiting, .scanning:
            remaining = []
            return send(.stopDisable, ScanConfiguration.enableCommand(false, extended: set == .extended), at: now)
        }
    }

    /// Feeds one event from the controller.
    public mutating func handle(_ event: ControllerEvent, at now: MonotonicInstant) -> [Action] {
        switch event {
        case .leMeta where event.isAdvertisingReport:
            lastReport = now
            escalation = 0
            return []
        case .commandComplete(let complete):
            return finish(
                complete.opcode, status: complete.status, returnParameters: complete.returnParameters, at: now)
        case .commandStatus(let status, let opcode) where !status.isSuccess:
            return finish(opcode, status: status, returnParameters: [], at: now)
        case .hardwareError(let code):
            statistics.hardwareErrors += 1
            guard configuration.mode != .listen else { return [.note(.hardwareError(code: code))] }
            switch phase {
            case .stopped, .failed, .awaiting(.stopDisable, _, _): return [.note(.hardwareError(code: code))]
            default: return [.note(.hardwareError(code: code))] + resetAndSetUp(at: now)
            }
        default:
            return []
        }
    }

    /// Handles expired deadlines; call it when `nextDeadline` has passed (calling it early is harmless).
    public mutating func tick(at now: MonotonicInstant) -> [Action] {
        switch phase {
        case .awaiting(let step, let opcode, let deadline) where now >= deadline:
            statistics.commandTimeouts += 1
            let note = Action.note(.commandTimedOut(opcode))
            if step == .stopDisable {
                phase = .stopped
                return [note, .stopped]
            }
            if step == .reset || resetSinceScanning {
                phase = .failed
                return [note, .failed(.timedOut(opcode))]
            }
            return [note] + resetAndSetUp(at: now)
        case .scanning:
            guard configuration.watchdog.microseconds > 0, now - lastReport >= watchdogPeriod else { return [] }
            let silent = now - lastReport
            lastReport = now
            if configuration.mode == .listen { return [.note(.silent(for: silent))] }
            escalation += 1
            if escalation == 1 {
                statistics.watchdogReenables += 1
                remaining = [.disable, .enable]
                return [.note(.watchdogReenable(silentFor: silent))] + advance(at: now)
            }
            statistics.watchdogResets += 1
            return [.note(.watchdogReset(silentFor: silent))] + resetAndSetUp(at: now)
        default:
            return []
        }
    }

    // MARK: - Sequencing

    private mutating func resetAndSetUp(at now: MonotonicInstant) -> [Action] {
        resetSinceScanning = true
        commandSet = nil
        statistics.setups += 1
        remaining = [.setEventMask, .leSetEventMask, .readSupportedCommands, .disable, .parameters, .enable]
        return send(.reset, .reset, at: now)
    }

    private mutating func advance(at now: MonotonicInstant) -> [Action] {
        guard !remaining.isEmpty else {
            phase = .scanning
            lastReport = now
            resetSinceScanning = false
            return [.scanning(commandSet)]
        }
        let step = remaining.removeFirst()
        let extended = commandSet == .extended
        switch step {
        case .readSupportedCommands: return send(step, .readLocalSupportedCommands, at: now)
        case .reset: return send(step, .reset, at: now)
        case .setEventMask: return send(step, .setEventMask(HCICommand.eventMaskWithLEMeta), at: now)
        case .leSetEventMask: return send(step, .leSetEventMask(HCICommand.leEventMaskWithAdvertisingReports), at: now)
        case .disable, .stopDisable:
            return send(step, ScanConfiguration.enableCommand(false, extended: extended), at: now)
        case .enable: return send(step, ScanConfiguration.enableCommand(true, extended: extended), at: now)
        case .parameters:
            return send(step, configuration.parametersCommand(extended: extended, includeCoded: includeCoded), at: now)
        }
    }

    private mutating func send(_ step: Step, _ command: HCICommand, at now: MonotonicInstant) -> [Action] {
        phase = .awaiting(step, command.opcode, deadline: now + configuration.commandTimeout)
        return [.send(command)]
    }

    private mutating func finish(
        _ opcode: HCIOpcode, status: HCIStatus, returnParameters: [UInt8], at now: MonotonicInstant
    ) -> [Action] {
        guard case .awaiting(let step, let pending, _) = phase, pending == opcode else { return [] }
        switch step {
        case .stopDisable:
            phase = .stopped
            return status == .commandDisallowed ? [toleratedDisallowed(opcode), .stopped] : [.stopped]
        case .reset:
            guard status.isSuccess else { return fail(.rejected(opcode, status)) }
            return advance(at: now)
        case .setEventMask, .leSetEventMask:
            guard status.isSuccess else { return [.note(.eventMaskRejected(opcode, status))] + advance(at: now) }
            return advance(at: now)
        case .readSupportedCommands:
            let supported =
                status.isSuccess && SupportedCommands(returnParameters: returnParameters).supportsExtendedScanning
            commandSet = supported && !legacyOnly ? .extended : .legacy
            return [.note(.usingCommandSet(commandSet!))] + advance(at: now)
        case .disable, .enable:
            if status.isSuccess { return advance(at: now) }
            if status == .commandDisallowed { return [toleratedDisallowed(opcode)] + advance(at: now) }
            return fallBackOrFail(opcode, status, at: now)
        case .parameters:
            if status.isSuccess { return advance(at: now) }
            if commandSet == .extended, includeCoded,
                status == .unsupportedFeatureOrParameterValue || status == .invalidCommandParameters
            {
                includeCoded = false
                remaining.insert(.parameters, at: 0)
                return [.note(.retryingWithoutCodedPHY(status: status))] + advance(at: now)
            }
            return fallBackOrFail(opcode, status, at: now)
        }
    }

    private mutating func toleratedDisallowed(_ opcode: HCIOpcode) -> Action {
        statistics.commandDisallowedTolerated += 1
        return .note(.commandDisallowedTolerated(opcode))
    }

    private mutating func fallBackOrFail(_ opcode: HCIOpcode, _ status: HCIStatus, at now: MonotonicInstant) -> [Action]
    {
        guard commandSet == .extended else { return fail(.rejected(opcode, status)) }
        statistics.fallbacks += 1
        legacyOnly = true
        commandSet = .legacy
        remaining = [.disable, .parameters, .enable]
        return [.note(.fallingBackToLegacy(rejected: opcode, status: status))] + advance(at: now)
    }

    private mutating func fail(_ failure: ScanFailure) -> [Action] {
        phase = .failed
        remaining = []
        return [.failed(failure)]
    }
}
