import BeaconWire
import Testing
import Vocabulary

/// The daemon's scan + advertising on one controller, driven by hand.
@Suite struct ControllerScanWithAdvertisingTests {
    static let t0 = ControllerAdvertiseTests.t0
    static let advertising = AdvertisingConfiguration(data: ControllerAdvertiseTests.data)

    static func sent(_ actions: [ScanWithAdvertising.Action]) -> [HCICommand] {
        actions.compactMap {
            switch $0 {
            case .scan(.send(let c)), .advertise(.send(let c)): return c
            default: return nil
            }
        }
    }

    /// Answers every command with success (Supported States from `states`) until nothing more is sent.
    static func answerAll(
        _ p: inout ScanWithAdvertising, _ first: [ScanWithAdvertising.Action],
        states: [UInt8] = [UInt8](repeating: 0xFF, count: 8)
    ) -> (commands: [HCICommand], actions: [ScanWithAdvertising.Action]) {
        var actions = first
        var all = first
        var commands: [HCICommand] = []
        while let command = sent(actions).last {
            commands.append(command)
            let answer: ControllerEvent
            switch command.opcode {
            case .readLocalSupportedCommands: answer = ControllerAdvertiseTests.supportedCommands(extended: false)
            case .leReadSupportedStates:
                answer = ControllerAdvertiseTests.complete(.leReadSupportedStates, .success, states)
            default: answer = ControllerAdvertiseTests.complete(command.opcode)
            }
            actions = p.handle(answer, at: t0)
            all += actions
        }
        return (commands, all)
    }

    @Test func advertisingStartsOnceTheScanRunsAndStopsFirst() {
        var p = ScanWithAdvertising(scan: ScanConfiguration(mode: .passive), advertising: Self.advertising)
        let (commands, actions) = Self.answerAll(&p, p.start(at: Self.t0))
        #expect(
            commands.map(\.opcode) == [
                .readLocalSupportedCommands, .leSetScanEnable, .leSetScanParameters, .leSetScanEnable,
                .readLocalSupportedCommands, .leReadSupportedStates, .leSetAdvertisingEnable,
                .leSetAdvertisingParameters,
                .leSetAdvertisingData, .leSetAdvertisingEnable,
            ])
        #expect(actions.contains(.scan(.scanning(.legacy))))
        // The state goes starting → advertising, after the scan runs.
        #expect(actions.filter { if case .state = $0 { true } else { false } }.first == .state(.starting))
        #expect(
            actions.suffix(2) == [
                .advertise(.advertising(.legacy)), .state(.advertising(.legacy, interval: .milliseconds(100))),
            ])
        #expect(p.scan.isScanning && p.advertiser?.isAdvertising == true)
        let stop = Self.answerAll(&p, p.stop(at: Self.t0))
        #expect(stop.commands == [.leSetAdvertisingEnable(false), .leSetScanEnable(false)])
        #expect(stop.actions.last == .scan(.stopped))
    }

    @Test func refusedStatesKeepTheScanRunning() {
        var p = ScanWithAdvertising(scan: ScanConfiguration(mode: .active), advertising: Self.advertising)
        var states = [UInt8](repeating: 0xFF, count: 8)
        states[1] = 0xEF  // no bit 12: non-connectable advertising + active scanning
        let (commands, actions) = Self.answerAll(&p, p.start(at: Self.t0), states: states)
        #expect(commands.last == .leReadSupportedStates)
        let refusal = AdvertiseController.Refusal.statesNotSupported(connectable: false, activeScan: true)
        #expect(actions.suffix(2) == [.advertise(.refused(refusal)), .state(.refused(refusal.description))])
        #expect(p.scan.isScanning)
        #expect(p.advertiser?.isRefused == true)
        // Stopping sends only the scan's disable.
        #expect(Self.answerAll(&p, p.stop(at: Self.t0)).commands == [.leSetScanEnable(false)])
    }

    @Test func listenModeNeverAdvertises() {
        var p = ScanWithAdvertising(scan: ScanConfiguration(mode: .listen), advertising: Self.advertising)
        #expect(p.start(at: Self.t0) == [.scan(.scanning(nil))])
        #expect(p.advertising == nil)
        #expect(p.readvertise(Self.advertising, at: Self.t0).isEmpty)
    }

    @Test func readvertisingStopsTheOldFrameThenStartsTheNew() {
        var p = ScanWithAdvertising(scan: ScanConfiguration(mode: .passive), advertising: Self.advertising)
        _ = Self.answerAll(&p, p.start(at: Self.t0))
        var next = Self.advertising
        next.data = BeaconVectors.flags
        let (commands, actions) = Self.answerAll(&p, p.readvertise(next, at: Self.t0))
        #expect(
            commands.map(\.opcode) == [
                .leSetAdvertisingEnable, .readLocalSupportedCommands, .leReadSupportedStates, .leSetAdvertisingEnable,
                .leSetAdvertisingParameters, .leSetAdvertisingData, .leSetAdvertisingEnable,
            ])
        #expect(commands[5] == .leSetAdvertisingData(BeaconVectors.flags))
        #expect(
            actions.suffix(2) == [
                .advertise(.advertising(.legacy)), .state(.advertising(.legacy, interval: .milliseconds(100))),
            ])
        // Advertising off: only the disable.
        let off = Self.answerAll(&p, p.readvertise(nil, at: Self.t0))
        #expect(off.commands == [.leSetAdvertisingEnable(false)])
        #expect(p.advertiser == nil && p.scan.isScanning)
    }

    @Test func aHardwareErrorResetsThroughTheScanAndAdvertisingComesBack() {
        var p = ScanWithAdvertising(scan: ScanConfiguration(mode: .passive), advertising: Self.advertising)
        _ = Self.answerAll(&p, p.start(at: Self.t0))
        let (commands, actions) = Self.answerAll(&p, p.handle(.hardwareError(code: 1), at: Self.t0))
        #expect(commands.first == .reset)
        #expect(actions.contains(.scan(.scanning(.legacy))))
        #expect(
            actions.suffix(2) == [
                .advertise(.advertising(.legacy)), .state(.advertising(.legacy, interval: .milliseconds(100))),
            ])
    }

    @Test func aRejectedAdvertisingCommandIsStateFailedAndTheScanGoesOn() {
        var p = ScanWithAdvertising(scan: ScanConfiguration(mode: .passive), advertising: Self.advertising)
        var actions = p.start(at: Self.t0)
        var states: [AdvertisingState] = []
        while let command = Self.sent(actions).last {
            let status: HCIStatus = command.opcode == .leSetAdvertisingParameters ? .invalidCommandParameters : .success
            let answer: ControllerEvent =
                command.opcode == .readLocalSupportedCommands
                ? ControllerAdvertiseTests.supportedCommands(extended: false)
                : command.opcode == .leReadSupportedStates
                    ? ControllerAdvertiseTests.complete(
                        .leReadSupportedStates, .success, [UInt8](repeating: 0xFF, count: 8))
                    : ControllerAdvertiseTests.complete(command.opcode, status)
            actions = p.handle(answer, at: Self.t0)
            states += actions.compactMap { if case .state(let s) = $0 { s } else { nil } }
        }
        #expect(
            states == [
                .starting, .failed("LE Set Advertising Parameters failed: \(HCIStatus.invalidCommandParameters)"),
            ])
        #expect(states.last?.name == "failed" && states.last?.reason != nil)
        #expect(p.scan.isScanning)
    }
}
