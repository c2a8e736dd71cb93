/// Drives one controller's advertising, beside `ScanController` and in its shape: a value type
/// whose mutating functions return the actions the caller performs (send the bytes, feed back every
/// event, call `tick` when `nextDeadline` passes).
///
/// Set-up: Read Local Supported Commands (§7.4.2) picks the extended advertising commands when LE
/// Set Extended Advertising Parameters, Data and Enable and LE Remove Advertising Set are all
/// supported (§6.27 octets 36–37), else the legacy ones; a rejected extended command switches the
/// whole set-up to legacy for good (the sets are never mixed, Vol 4, Part E, §3.1.1). Alongside a
/// scan, LE Read Supported States (§7.8.27) must allow the combination, or nothing is advertised
/// (`.refused`). With the legacy commands, a non-connectable interval under 100 ms first reads Read
/// Local Version Information (§7.4.1): a controller older than Bluetooth 5.0 needs at least 100 ms
/// (4.2, Vol 2, Part E, §7.8.5), so the interval is raised to that (`.intervalRaised`). Then: disable (and remove the extended set: a stale one from an earlier run), the
/// random address when asked for, parameters, data, enable. Disable and remove may answer Command
/// Disallowed or Unknown Advertising Identifier (nothing was advertising): tolerated.
///
/// Faults, as for scanning: a command without Complete/Status within `commandTimeout` → HCI Reset
/// (event masks restored) and set-up again, once; a Hardware Error → the same. An HCI Reset someone
/// else sent (its Command Complete arrives here too) wipes the advertising state: set-up again at
/// once. Every `refresh` while advertising the set-up is repeated, for resets this host never saw.
/// Stop and failure leave the controller as found: advertising disabled, the extended set removed.
import Vocabulary

public struct AdvertiseController: Sendable {
    public typealias CommandSet = LECommandSet

    public enum Action: Sendable, Equatable {
        case send(HCICommand)
        /// Advertising is on.
        case advertising(CommandSet)
        /// The controller cannot advertise alongside the scan (LE Supported States); nothing was enabled.
        case refused(Refusal)
        /// Advertising is off (or was never on); the transport may be closed.
        case stopped
        case note(Note)
        /// Set-up failed; advertising was disabled again. Close, back off, reopen, `start` again.
        case failed(ControllerFailure)
    }

    public enum Refusal: Sendable, Equatable, CustomStringConvertible {
        case statesNotSupported(connectable: Bool, activeScan: Bool)

        public var description: String {
            switch self {
            case .statesNotSupported(let connectable, let active):
                return "the controller does not support \(connectable ? "connectable" : "non-connectable") "
                    + "advertising while \(active ? "actively" : "passively") scanning (LE Read Supported States); "
                    + "not advertising"
            }
        }
    }

    public enum Note: Sendable, Equatable, CustomStringConvertible {
        case usingCommandSet(CommandSet)
        case fallingBackToLegacy(rejected: HCIOpcode, status: HCIStatus)
        case supportedStatesUnknown(HCIStatus?)
        case commandTimedOut(HCIOpcode)
        case hardwareError(code: UInt8)
        case eventMaskRejected(HCIOpcode, HCIStatus)
        case resetByAnotherHost
        case refreshing
        /// The legacy commands have no TX power parameter: the controller's default is used.
        case txPowerNotSettable
        /// A pre-5.0 controller (its HCI_Version): the non-connectable interval raised to 100 ms.
        case intervalRaised(hciVersion: UInt8, from: TimeSpan)

        public var description: String {
            switch self {
            case .usingCommandSet(let set): return "using the \(set.rawValue) LE advertising commands"
            case .fallingBackToLegacy(let op, let status):
                return "\(op) rejected with \(status); falling back to the legacy LE advertising commands"
            case .supportedStatesUnknown(let status):
                return "LE Read Supported States " + (status.map { "failed: \($0)" } ?? "is not supported")
                    + "; advertising alongside the scan unchecked"
            case .commandTimedOut(let op): return "\(op) got no Command Complete/Status in time"
            case .hardwareError(let code): return "controller reported Hardware Error 0x\(Hex.string([code]))"
            case .eventMaskRejected(let op, let status): return "\(op) after reset failed: \(status); carrying on"
            case .resetByAnotherHost: return "the controller was reset by another host; setting advertising up again"
            case .refreshing: return "refreshing the advertising set-up"
            case .txPowerNotSettable:
                return "the legacy advertising commands cannot set the TX power; the controller's default is used"
            case .intervalRaised(let version, let from):
                let limit = AdvertisingConfiguration.legacyNonConnectableMinimum.microseconds / 1000
                return
                    "the controller predates Bluetooth 5.0 (HCI_Version \(version)), which needs at least \(limit) ms "
                    + "between non-connectable advertisements: advertising every \(limit) ms, not \(from.microseconds / 1000) ms"
            }
        }
    }

    public struct Statistics: Sendable, Equatable {
        public var setups = 0
        public var refreshes = 0
        public var commandTimeouts = 0
        public var hardwareErrors = 0
        public var fallbacks = 0
        public var foreignResets = 0
        public init() {}
    }

    private enum Purpose: Sendable, Equatable {
        case readCommands, readVersion, readStates, reset, eventMask, setUp, tolerant, stop
    }

    private struct Step: Sendable, Equatable {
        var command: HCICommand
        var purpose: Purpose
    }

    private enum Phase: Sendable, Equatable {
        case idle
        case awaiting(Step, deadline: MonotonicInstant)
        case advertising(since: MonotonicInstant)
        case refused, stopped, failed
    }

    /// What is sent; the interval may be raised for a pre-5.0 controller during set-up.
    public private(set) var configuration: AdvertisingConfiguration
    public private(set) var statistics = Statistics()
    public private(set) var commandSet: CommandSet?
    private var phase: Phase = .idle
    private var remaining: [Step] = []
    private var legacyOnly = false
    private var resetSinceAdvertising = false
    /// Set while the stop (or the clean-up after a failure) runs.
    private var ending: Action?
    private var supported = SupportedCommands(octets: [])

    /// `forcedCommandSet`: the set the scan on this controller already uses, so the two never mix.
    public init(configuration: AdvertisingConfiguration, forcedCommandSet: CommandSet? = nil) {
        self.configuration = configuration
        self.forced = forcedCommandSet
    }

    private let forced: CommandSet?

    public var isAdvertising: Bool { if case .advertising = phase { return true } else { return false } }
    public var isStopped: Bool { phase == .stopped }
    public var isRefused: Bool { phase == .refused }
    /// Advertising or setting up: a stop has something to undo.
    public var isActive: Bool {
        switch phase {
        case .awaiting, .advertising: return true
        default: return false
        }
    }

    /// The opcode whose Command Complete/Status is awaited.
    public var pendingOpcode: HCIOpcode? {
        if case .awaiting(let step, _) = phase { return step.command.opcode }
        return nil
    }

    public var nextDeadline: MonotonicInstant? {
        switch phase {
        case .awaiting(_, let deadline): return deadline
        case .advertising(let since):
            return configuration.refresh.microseconds > 0 ? since + configuration.refresh : nil
        default: return nil
        }
    }

    public mutating func start(at now: MonotonicInstant) -> [Action] {
        commandSet = nil
        ending = nil
        resetSinceAdvertising = false
        statistics.setups += 1
        remaining = [Step(command: .readLocalSupportedCommands, purpose: .readCommands)]
        return advance(at: now)
    }

    /// Disables advertising (and removes the extended set). Keep feeding events until `.stopped`.
    public mutating func stop(at now: MonotonicInstant) -> [Action] {
        switch phase {
        case .awaiting, .advertising: return end(with: .stopped, at: now)
        default:
            phase = .stopped
            return [.stopped]
        }
    }

    public mutating func handle(_ event: ControllerEvent, at now: MonotonicInstant) -> [Action] {
        switch event {
        case .commandComplete(let complete):
            if complete.opcode == .reset, !awaitingOwnReset {
                return resetSeen(at: now)
            }
            return finish(complete.opcode, complete.status, complete.returnParameters, at: now)
        case .commandStatus(let status, let opcode) where !status.isSuccess:
            return finish(opcode, status, [], at: now)
        case .hardwareError(let code):
            statistics.hardwareErrors += 1
            guard ending == nil, phase != .stopped, phase != .failed, phase != .refused else {
                return [.note(.hardwareError(code: code))]
            }
            return [.note(.hardwareError(code: code))] + resetAndSetUp(at: now)
        default:
            return []
        }
    }

    public mutating func tick(at now: MonotonicInstant) -> [Action] {
        switch phase {
        case .awaiting(let step, let deadline) where now >= deadline:
            statistics.commandTimeouts += 1
            let note = Action.note(.commandTimedOut(step.command.opcode))
            if let ending {
                // Leaving anyway: the rest of the clean-up is skipped.
                phase = ending == .stopped ? .stopped : .failed
                return [note, ending]
            }
            if step.purpose == .reset || resetSinceAdvertising {
                phase = .failed
                return [note, .failed(.timedOut(step.command.opcode))]
            }
            return [note] + resetAndSetUp(at: now)
        case .advertising(let since)
        where configuration.refresh.microseconds > 0 && now - since >= configuration.refresh:
            statistics.refreshes += 1
            remaining = setUpSteps()
            return [.note(.refreshing)] + advance(at: now)
        default:
            return []
        }
    }

    // MARK: - Sequencing

    private var awaitingOwnReset: Bool {
        if case .awaiting(let step, _) = phase { return step.purpose == .reset }
        return false
    }

    private func setUpSteps() -> [Step] {
        let extended = commandSet == .extended
        return configuration.setUpCommands(extended: extended).map { command in
            let isCleanUp =
                command.opcode == .leRemoveAdvertisingSet
                || command == configuration.enableCommand(false, extended: extended)
            return Step(command: command, purpose: isCleanUp ? .tolerant : .setUp)
        }
    }

    private mutating func resetSeen(at now: MonotonicInstant) -> [Action] {
        switch phase {
        case .advertising, .awaiting:
            guard ending == nil, commandSet != nil else { return [] }
            statistics.foreignResets += 1
            remaining = setUpSteps()
            return [.note(.resetByAnotherHost)] + advance(at: now)
        default:
            return []
        }
    }

    private mutating func resetAndSetUp(at now: MonotonicInstant) -> [Action] {
        resetSinceAdvertising = true
        commandSet = nil
        statistics.setups += 1
        remaining = [
            Step(command: .setEventMask(HCICommand.eventMaskWithLEMeta), purpose: .eventMask),
            Step(command: .leSetEventMask(HCICommand.leEventMaskWithAdvertisingReports), purpose: .eventMask),
            Step(command: .readLocalSupportedCommands, purpose: .readCommands),
        ]
        return send(Step(command: .reset, purpose: .reset), at: now)
    }

    private mutating func advance(at now: MonotonicInstant) -> [Action] {
        guard !remaining.isEmpty else {
            if let ending {
                phase = ending == .stopped ? .stopped : .failed
                return [ending]
            }
            phase = .advertising(since: now)
            resetSinceAdvertising = false
            return [.advertising(commandSet ?? .legacy)]
        }
        return send(remaining.removeFirst(), at: now)
    }

    private mutating func send(_ step: Step, at now: MonotonicInstant) -> [Action] {
        phase = .awaiting(step, deadline: now + configuration.commandTimeout)
        return [.send(step.command)]
    }

    private mutating func finish(
        _ opcode: HCIOpcode, _ status: HCIStatus, _ returnParameters: [UInt8], at now: MonotonicInstant
    ) -> [Action] {
        guard case .awaiting(let step, _) = phase, step.command.opcode == opcode else { return [] }
        switch step.purpose {
        case .stop, .tolerant:
            return advance(at: now)
        case .reset:
            guard status.isSuccess else { return fail(.rejected(opcode, status), at: now) }
            return advance(at: now)
        case .eventMask:
            guard status.isSuccess else { return [.note(.eventMaskRejected(opcode, status))] + advance(at: now) }
            return advance(at: now)
        case .readCommands:
            supported = SupportedCommands(returnParameters: status.isSuccess ? returnParameters : [])
            let extended = forced.map { $0 == .extended } ?? (supported.supportsExtendedAdvertising && !legacyOnly)
            commandSet = extended ? .extended : .legacy
            var notes: [Action] = [.note(.usingCommandSet(commandSet!))]
            if !extended, configuration.txPower != nil { notes.append(.note(.txPowerNotSettable)) }
            remaining = setUpSteps()
            if configuration.alongsideScan != nil {
                if supported.contains(SupportedCommands.leReadSupportedStates) {
                    remaining.insert(Step(command: .leReadSupportedStates, purpose: .readStates), at: 0)
                } else {
                    notes.append(.note(.supportedStatesUnknown(nil)))
                }
            }
            // Mandatory on every controller (Vol 4, Part E, §3.19), so sent whatever the mask says.
            if configuration.needsVersionCheck(extended: extended) {
                remaining.insert(Step(command: .readLocalVersionInformation, purpose: .readVersion), at: 0)
            }
            return notes + advance(at: now)
        case .readVersion:
            // Status first, then HCI_Version (§7.4.1).
            guard status.isSuccess, returnParameters.count > 1, case let version = returnParameters[1],
                version < AdvertisingConfiguration.bluetooth5HCIVersion
            else { return advance(at: now) }
            let from = configuration.interval
            configuration.interval = AdvertisingConfiguration.legacyNonConnectableMinimum
            let parameters = configuration.parametersCommand(extended: false)
            remaining = remaining.map {
                $0.command.opcode == .leSetAdvertisingParameters ? Step(command: parameters, purpose: $0.purpose) : $0
            }
            return [.note(.intervalRaised(hciVersion: version, from: from))] + advance(at: now)
        case .readStates:
            guard status.isSuccess else { return [.note(.supportedStatesUnknown(status))] + advance(at: now) }
            let active = configuration.alongsideScan == .active
            let states = LESupportedStates(returnParameters: returnParameters)
            guard states.allowsAdvertising(connectable: configuration.connectable, whileScanning: active) else {
                phase = .refused
                remaining = []
                return [.refused(.statesNotSupported(connectable: configuration.connectable, activeScan: active))]
            }
            return advance(at: now)
        case .setUp:
            if status.isSuccess { return advance(at: now) }
            guard commandSet == .extended, forced == nil else { return fail(.rejected(opcode, status), at: now) }
            statistics.fallbacks += 1
            legacyOnly = true
            // Clean the half-made extended set up, then the legacy set-up.
            commandSet = .legacy
            remaining =
                [Step(command: .leRemoveAdvertisingSet(handle: configuration.handle), purpose: .tolerant)]
                + setUpSteps()
            return [.note(.fallingBackToLegacy(rejected: opcode, status: status))] + advance(at: now)
        }
    }

    private mutating func fail(_ failure: ControllerFailure, at now: MonotonicInstant) -> [Action] {
        guard commandSet != nil, opcodeNeedsCleanUp else {
            phase = .failed
            remaining = []
            return [.failed(failure)]
        }
        return end(with: .failed(failure), at: now)
    }

    /// Whether anything may have been set on the controller (a reset rejected leaves nothing to undo).
    private var opcodeNeedsCleanUp: Bool {
        if case .awaiting(let step, _) = phase { return step.purpose != .reset }
        return true
    }

    private mutating func end(with action: Action, at now: MonotonicInstant) -> [Action] {
        guard let set = commandSet else {
            phase = action == .stopped ? .stopped : .failed
            return [action]
        }
        ending = action
        remaining = configuration.stopCommands(extended: set == .extended).map { Step(command: $0, purpose: .stop) }
        return advance(at: now)
    }
}
