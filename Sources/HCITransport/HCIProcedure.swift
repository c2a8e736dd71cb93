import BeaconCore
import BeaconWire
import Vocabulary

/// A controller state machine `HCIControllerLoop` drives over one transport: the scan
/// (`ScanController`) or advertising (`AdvertiseController`). Each turns events and deadlines into
/// actions; `effect(of:)` says what the loop does with one.
package protocol HCIProcedure: Sendable {
    associatedtype Action: Sendable
    mutating func start(at now: MonotonicInstant) -> [Action]
    mutating func stop(at now: MonotonicInstant) -> [Action]
    mutating func handle(_ event: ControllerEvent, at now: MonotonicInstant) -> [Action]
    mutating func tick(at now: MonotonicInstant) -> [Action]
    var nextDeadline: MonotonicInstant? { get }
    static func effect(of action: Action) -> HCIProcedureEffect
}

/// What the loop does with one action.
package enum HCIProcedureEffect: Sendable, Equatable {
    /// Write the command to the transport.
    case send(HCICommand)
    /// The procedure reached its steady state (scanning, advertising, refused): healthy, log the line.
    case running(LogLevel, String)
    case log(LogLevel, String)
    /// Deliver the advertiser's new state (`SourceEvent.advertising`).
    case advertising(AdvertisingState)
    /// The procedure ended after `stop`.
    case stopped
    /// Set-up failed: close, back off, reopen (or end, `HCILoopOptions.endOnFailure`).
    case failed(ControllerFailure)
}

extension ScanController: HCIProcedure {
    package static func effect(of action: Action) -> HCIProcedureEffect {
        switch action {
        case .send(let command): return .send(command)
        case .scanning(let set):
            return .running(
                .info, set.map { "scanning with the \($0.rawValue) LE commands" } ?? "listening (no commands sent)")
        case .note(let note):
            switch note {
            case .usingCommandSet, .silent: return .log(.debug, note.description)
            case .commandDisallowedTolerated: return .log(.info, note.description)
            default: return .log(.warning, note.description)
            }
        case .stopped: return .stopped
        case .failed(let failure): return .failed(failure)
        }
    }
}

extension AdvertiseController: HCIProcedure {
    package static func effect(of action: Action) -> HCIProcedureEffect {
        switch action {
        case .send(let command): return .send(command)
        case .advertising(let set): return .running(.info, "advertising with the \(set.rawValue) LE commands")
        case .refused(let refusal): return .running(.warning, refusal.description)
        case .note(let note):
            switch note {
            case .usingCommandSet, .refreshing: return .log(.debug, note.description)
            default: return .log(.warning, note.description)
            }
        case .stopped: return .stopped
        case .failed(let failure): return .failed(failure)
        }
    }
}

extension ScanWithAdvertising: HCIProcedure {
    /// The scan's actions drive the loop; advertising's are logged only, since its failure or refusal
    /// never stops the scan.
    package static func effect(of action: Action) -> HCIProcedureEffect {
        switch action {
        case .scan(let scan): return ScanController.effect(of: scan)
        case .advertise(let advertise):
            switch advertise {
            case .send(let command): return .send(command)
            case .advertising, .note: return AdvertiseController.effect(of: advertise).asLog
            case .refused(let refusal): return .log(.warning, refusal.description + "; scanning goes on")
            case .stopped: return .log(.debug, "advertising stopped")
            case .failed(let failure): return .log(.error, "advertising failed: \(failure); scanning goes on")
            }
        case .state(let state): return .advertising(state)
        }
    }
}

extension HCIProcedureEffect {
    /// A steady state reached by a part of the procedure, logged but not the loop's own.
    var asLog: Self {
        if case .running(let level, let line) = self { return .log(level, line) }
        return self
    }
}
