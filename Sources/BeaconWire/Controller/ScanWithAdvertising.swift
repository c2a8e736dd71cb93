/// The daemon's procedure on one controller: the scan, and once it runs, advertising beside it.
///
/// The two share the controller, so their commands never overlap: advertising is (re)started each
/// time the scan reaches `.scanning` (after its set-up, a watchdog re-enable or a reset), with the
/// scan's command set so the two are never mixed (Vol 4, Part E, §3.1.1), and with the LE Supported
/// States check for the scan's mode. Command Completes go to whichever waits for that opcode; a
/// Hardware Error is the scan's to handle (its reset wipes advertising, which restarts afterwards).
/// An HCI Reset the advertiser sends (after a command timeout) ends the scan too, so the scan is
/// set up again afterwards. An advertising failure or refusal never stops the scan. On stop, advertising is disabled (and
/// the extended set removed) first, then the scan. `listen` mode never advertises. Each change of
/// the advertiser's state is reported (`.state`), for the retained `advertising` topic.
import Vocabulary

public struct ScanWithAdvertising: Sendable {
    public enum Action: Sendable, Equatable {
        case scan(ScanController.Action)
        case advertise(AdvertiseController.Action)
        /// The advertiser reached a new state (starting, advertising, refused, failed).
        case state(AdvertisingState)
    }

    public private(set) var scan: ScanController
    public private(set) var advertiser: AdvertiseController?
    /// What is advertised; nil: nothing (the scan alone).
    public private(set) var advertising: AdvertisingConfiguration?
    private var stopping = false
    /// The advertiser reset the controller (a command timed out), which also ended the scan: the
    /// scan is set up again once advertising is back.
    private var scanNeedsRestart = false

    public init(scan: ScanConfiguration, advertising: AdvertisingConfiguration?) {
        self.scan = ScanController(configuration: scan)
        var advertising = advertising
        advertising?.alongsideScan = scan.mode
        self.advertising = scan.mode == .listen ? nil : advertising
    }

    public var nextDeadline: MonotonicInstant? {
        [scan.nextDeadline, advertiser?.nextDeadline].compactMap { $0 }.min()
    }

    public mutating func start(at now: MonotonicInstant) -> [Action] {
        stopping = false
        advertiser = nil
        return scanActions(scan.start(at: now), at: now)
    }

    public mutating func stop(at now: MonotonicInstant) -> [Action] {
        stopping = true
        if var advertiser, advertiser.isActive {
            let actions = advertiser.stop(at: now)
            self.advertiser = advertiser
            return advertiserActions(actions, at: now)
        }
        return scanActions(scan.stop(at: now), at: now)
    }

    public mutating func handle(_ event: ControllerEvent, at now: MonotonicInstant) -> [Action] {
        let opcode: HCIOpcode?
        switch event {
        case .commandComplete(let complete): opcode = complete.opcode
        case .commandStatus(_, let op): opcode = op
        case .hardwareError: return scanActions(scan.handle(event, at: now), at: now)
        default: opcode = nil
        }
        if let opcode, scan.pendingOpcode != opcode, var advertiser,
            advertiser.pendingOpcode == opcode || opcode == .reset
        {
            let actions = advertiser.handle(event, at: now)
            self.advertiser = advertiser
            return advertiserActions(actions, at: now)
        }
        return scanActions(scan.handle(event, at: now), at: now)
    }

    public mutating func tick(at now: MonotonicInstant) -> [Action] {
        var out = scanActions(scan.tick(at: now), at: now)
        if var advertiser, scan.isScanning {
            let actions = advertiser.tick(at: now)
            self.advertiser = advertiser
            out += advertiserActions(actions, at: now)
        }
        return out
    }

    /// Replaces what is advertised (SIGHUP): the current advertising is stopped, the new one starts.
    public mutating func readvertise(_ configuration: AdvertisingConfiguration?, at now: MonotonicInstant) -> [Action] {
        var configuration = configuration
        configuration?.alongsideScan = scan.configuration.mode
        guard scan.configuration.mode != .listen, configuration != advertising else { return [] }
        advertising = configuration
        if var advertiser, advertiser.isActive {
            // The replacement starts once this one reports `.stopped`.
            let actions = advertiser.stop(at: now)
            self.advertiser = advertiser
            return advertiserActions(actions, at: now)
        }
        advertiser = nil
        return scan.isScanning ? startAdvertiser(at: now) : []
    }

    // MARK: - Sequencing

    private mutating func scanActions(_ actions: [ScanController.Action], at now: MonotonicInstant) -> [Action] {
        var out: [Action] = []
        for action in actions {
            out.append(.scan(action))
            if case .scanning = action, !stopping { out += startAdvertiser(at: now) }
        }
        return out
    }

    private mutating func startAdvertiser(at now: MonotonicInstant) -> [Action] {
        guard let advertising, scan.configuration.mode != .listen else { return [] }
        var advertiser = AdvertiseController(configuration: advertising, forcedCommandSet: scan.commandSet)
        let actions = advertiser.start(at: now)
        self.advertiser = advertiser
        return [.state(.starting)] + advertiserActions(actions, at: now)
    }

    private mutating func advertiserActions(
        _ actions: [AdvertiseController.Action], at now: MonotonicInstant
    ) -> [Action] {
        var out: [Action] = []
        for action in actions {
            out.append(.advertise(action))
            if action == .send(.reset) { scanNeedsRestart = true }
            if scanNeedsRestart, !stopping, action == .advertising(.legacy) || action == .advertising(.extended) {
                scanNeedsRestart = false
                advertiser = nil
                out += scanActions(scan.start(at: now), at: now)
                continue
            }
            switch action {
            case .advertising(let set):
                out.append(.state(.advertising(set, interval: advertiser?.configuration.interval ?? .zero)))
            case .refused(let refusal): out.append(.state(.refused(refusal.description)))
            case .failed(let failure): out.append(.state(.failed(failure.description)))
            default: break
            }
            guard action == .stopped else { continue }
            if stopping {
                out += scanActions(scan.stop(at: now), at: now)
            } else {
                // A replacement (readvertise) waits for the old advertising to stop.
                advertiser = nil
                if scan.isScanning { out += startAdvertiser(at: now) }
            }
        }
        return out
    }
}
