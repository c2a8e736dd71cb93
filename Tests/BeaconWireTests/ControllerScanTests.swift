import BeaconWire
import Testing
import Vocabulary

/// The scan state machine, driven by hand: each test plays the controller's answers.
@Suite struct ControllerScanTests {
    static let t0 = MonotonicInstant(nanoseconds: 1_000_000_000_000)

    /// Supported_Commands with (or without) octet 37 bits 5 and 6.
    static func supportedCommands(extended: Bool) -> ControllerEvent {
        var octets = [UInt8](repeating: 0xFF, count: 64)
        octets[37] = extended ? 0xFF : 0b1001_1111
        return .commandComplete(.init(opcode: .readLocalSupportedCommands, returnParameters: [0x00] + octets))
    }

    static func complete(_ opcode: HCIOpcode, _ status: HCIStatus = .success) -> ControllerEvent {
        .commandComplete(.init(opcode: opcode, returnParameters: [status.rawValue]))
    }

    static func sent(_ actions: [ScanController.Action]) -> [HCICommand] {
        actions.compactMap { if case .send(let c) = $0 { return c } else { return nil } }
    }

    static func notes(_ actions: [ScanController.Action]) -> [ScanController.Note] {
        actions.compactMap { if case .note(let n) = $0 { return n } else { return nil } }
    }

    @Test func legacySetUpDisablesSetsParametersAndEnablesWithoutDuplicateFilter() {
        var scan = ScanController(configuration: ScanConfiguration(mode: .active))
        #expect(Self.sent(scan.start(at: Self.t0)) == [.readLocalSupportedCommands])
        #expect(
            Self.sent(scan.handle(Self.supportedCommands(extended: false), at: Self.t0)) == [.leSetScanEnable(false)])
        #expect(scan.commandSet == .legacy)
        let parameters = Self.sent(scan.handle(Self.complete(.leSetScanEnable), at: Self.t0))
        #expect(parameters.map(\.packet) == [[0x01, 0x0B, 0x20, 0x07, 0x01, 0xA0, 0x00, 0xA0, 0x00, 0x00, 0x00]])
        #expect(
            Self.sent(scan.handle(Self.complete(.leSetScanParameters), at: Self.t0)).map(\.packet)
                == [[0x01, 0x0C, 0x20, 0x02, 0x01, 0x00]])
        #expect(scan.handle(Self.complete(.leSetScanEnable), at: Self.t0) == [.scanning(.legacy)])
        #expect(scan.isScanning)
    }

    @Test func extendedSetUpUsesOnlyExtendedCommands() {
        var scan = ScanController(configuration: ScanConfiguration(mode: .passive, scanCodedPHY: true))
        var commands = Self.sent(scan.start(at: Self.t0))
        commands += Self.sent(scan.handle(Self.supportedCommands(extended: true), at: Self.t0))
        commands += Self.sent(scan.handle(Self.complete(.leSetExtendedScanEnable), at: Self.t0))
        commands += Self.sent(scan.handle(Self.complete(.leSetExtendedScanParameters), at: Self.t0))
        let last = scan.handle(Self.complete(.leSetExtendedScanEnable), at: Self.t0)
        #expect(last == [.scanning(.extended)])
        #expect(
            commands.map(\.opcode) == [
                .readLocalSupportedCommands, .leSetExtendedScanEnable, .leSetExtendedScanParameters,
                .leSetExtendedScanEnable,
            ])
        // Scanning_PHYs = 1M | Coded, both passive at 160 slots.
        #expect(
            commands[2].parameters == [0x00, 0x00, 0x05, 0x00, 0xA0, 0x00, 0xA0, 0x00, 0x00, 0xA0, 0x00, 0xA0, 0x00])
        #expect(commands[3].parameters == [0x01, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    @Test func rejectedExtendedCommandFallsBackToLegacyForTheWholeSequence() {
        var scan = ScanController(configuration: ScanConfiguration())
        _ = scan.start(at: Self.t0)
        _ = scan.handle(Self.supportedCommands(extended: true), at: Self.t0)
        _ = scan.handle(Self.complete(.leSetExtendedScanEnable), at: Self.t0)
        let actions = scan.handle(Self.complete(.leSetExtendedScanParameters, .unknownCommand), at: Self.t0)
        #expect(
            Self.notes(actions) == [
                .fallingBackToLegacy(rejected: .leSetExtendedScanParameters, status: .unknownCommand)
            ])
        #expect(Self.sent(actions) == [.leSetScanEnable(false)])
        #expect(
            Self.sent(scan.handle(Self.complete(.leSetScanEnable), at: Self.t0)).map(\.opcode) == [.leSetScanParameters]
        )
        #expect(Self.sent(scan.handle(Self.complete(.leSetScanParameters), at: Self.t0)) == [.leSetScanEnable(true)])
        #expect(scan.handle(Self.complete(.leSetScanEnable), at: Self.t0) == [.scanning(.legacy)])
        #expect(scan.statistics.fallbacks == 1)
        // Stopping uses the set in use: legacy.
        #expect(Self.sent(scan.stop(at: Self.t0)) == [.leSetScanEnable(false)])
    }

    /// The kernel or bluetoothd already drove this controller with the legacy set, so it refuses the
    /// extended one: the disable is tolerated, the parameters are not, and legacy takes over.
    @Test func controllerLockedToLegacyByAnotherHostIsScannedWithLegacy() {
        var scan = ScanController(configuration: ScanConfiguration())
        _ = scan.start(at: Self.t0)
        _ = scan.handle(Self.supportedCommands(extended: true), at: Self.t0)
        let afterDisable = scan.handle(Self.complete(.leSetExtendedScanEnable, .commandDisallowed), at: Self.t0)
        #expect(Self.notes(afterDisable) == [.commandDisallowedTolerated(.leSetExtendedScanEnable)])
        let afterParameters = scan.handle(Self.complete(.leSetExtendedScanParameters, .commandDisallowed), at: Self.t0)
        #expect(Self.sent(afterParameters) == [.leSetScanEnable(false)])
        _ = scan.handle(Self.complete(.leSetScanEnable), at: Self.t0)
        _ = scan.handle(Self.complete(.leSetScanParameters), at: Self.t0)
        #expect(scan.handle(Self.complete(.leSetScanEnable), at: Self.t0) == [.scanning(.legacy)])
        // A later reset does not try the extended set again on this controller.
        _ = scan.handle(.hardwareError(code: 0), at: Self.t0)
        Self.answerReset(&scan, at: Self.t0)
        #expect(
            Self.sent(scan.handle(Self.supportedCommands(extended: true), at: Self.t0)) == [.leSetScanEnable(false)])
        #expect(scan.commandSet == .legacy)
    }

    @Test func stopBeforeTheCommandSetIsKnownSendsNothing() {
        var scan = ScanController(configuration: ScanConfiguration())
        _ = scan.start(at: Self.t0)
        #expect(scan.stop(at: Self.t0) == [.stopped])
        #expect(scan.isStopped)
        #expect(scan.nextDeadline == nil)
    }

    @Test func rejectedCodedPHYRetriesWithLE1MBeforeFallingBack() {
        var scan = ScanController(configuration: ScanConfiguration(scanCodedPHY: true))
        _ = scan.start(at: Self.t0)
        _ = scan.handle(Self.supportedCommands(extended: true), at: Self.t0)
        _ = scan.handle(Self.complete(.leSetExtendedScanEnable), at: Self.t0)
        let retry = scan.handle(
            Self.complete(.leSetExtendedScanParameters, .unsupportedFeatureOrParameterValue), at: Self.t0)
        #expect(Self.sent(retry).map { $0.parameters[2] } == [0x01])
        #expect(scan.commandSet == .extended)
    }

    @Test func commandDisallowedOnEnableAndDisableIsToleratedAndNoted() {
        var scan = ScanController(configuration: ScanConfiguration())
        _ = scan.start(at: Self.t0)
        _ = scan.handle(Self.supportedCommands(extended: false), at: Self.t0)
        let afterDisable = scan.handle(Self.complete(.leSetScanEnable, .commandDisallowed), at: Self.t0)
        #expect(Self.notes(afterDisable) == [.commandDisallowedTolerated(.leSetScanEnable)])
        _ = scan.handle(Self.complete(.leSetScanParameters), at: Self.t0)
        let afterEnable = scan.handle(Self.complete(.leSetScanEnable, .commandDisallowed), at: Self.t0)
        #expect(afterEnable.last == .scanning(.legacy))
        #expect(scan.statistics.commandDisallowedTolerated == 2)
    }

    @Test func rejectedLegacyParametersFailWithTheStatusName() {
        var scan = ScanController(configuration: ScanConfiguration())
        _ = scan.start(at: Self.t0)
        _ = scan.handle(Self.supportedCommands(extended: false), at: Self.t0)
        _ = scan.handle(Self.complete(.leSetScanEnable), at: Self.t0)
        let actions = scan.handle(Self.complete(.leSetScanParameters, .invalidCommandParameters), at: Self.t0)
        #expect(actions == [.failed(.rejected(.leSetScanParameters, .invalidCommandParameters))])
        #expect(
            "\(ScanController.ScanFailure.rejected(.leSetScanParameters, .invalidCommandParameters))"
                == "LE Set Scan Parameters failed: Invalid HCI Command Parameters (0x12)")
    }

    @Test func commandTimeoutResetsOnceThenFails() {
        var scan = ScanController(configuration: ScanConfiguration(commandTimeout: .seconds(2)))
        _ = scan.start(at: Self.t0)
        #expect(scan.nextDeadline == Self.t0 + .seconds(2))
        #expect(scan.tick(at: Self.t0 + .milliseconds(1999)).isEmpty)
        let first = scan.tick(at: Self.t0 + .seconds(2))
        #expect(Self.notes(first) == [.commandTimedOut(.readLocalSupportedCommands)])
        #expect(Self.sent(first) == [.reset])
        Self.answerReset(&scan, at: Self.t0 + .seconds(3))
        let second = scan.tick(at: Self.t0 + .seconds(5))
        #expect(second.last == .failed(.timedOut(.readLocalSupportedCommands)))
        #expect(scan.statistics.commandTimeouts == 2)
    }

    @Test func hardwareErrorResetsAndSetsUpAgain() {
        var scan = ScanController(configuration: ScanConfiguration())
        Self.bringUpLegacy(&scan)
        let actions = scan.handle(.hardwareError(code: 0x07), at: Self.t0)
        #expect(Self.notes(actions) == [.hardwareError(code: 0x07)])
        #expect(Self.sent(actions) == [.reset])
        Self.answerReset(&scan, at: Self.t0)
        #expect(scan.statistics.hardwareErrors == 1)
    }

    @Test func watchdogReenablesThenResetsThenBacksOff() {
        var scan = ScanController(configuration: ScanConfiguration(watchdog: .seconds(30)))
        Self.bringUpLegacy(&scan)
        #expect(scan.tick(at: Self.t0 + .seconds(29)).isEmpty)
        // A report restarts the period.
        _ = scan.handle(.leMeta(subevent: 0x02), at: Self.t0 + .seconds(20))
        #expect(scan.tick(at: Self.t0 + .seconds(49)).isEmpty)
        let reenable = scan.tick(at: Self.t0 + .seconds(50))
        #expect(Self.notes(reenable) == [.watchdogReenable(silentFor: .seconds(30))])
        #expect(Self.sent(reenable) == [.leSetScanEnable(false)])
        #expect(
            Self.sent(scan.handle(Self.complete(.leSetScanEnable), at: Self.t0 + .seconds(50))) == [
                .leSetScanEnable(true)
            ])
        #expect(scan.handle(Self.complete(.leSetScanEnable), at: Self.t0 + .seconds(50)) == [.scanning(.legacy)])
        let reset = scan.tick(at: Self.t0 + .seconds(80))
        #expect(Self.notes(reset) == [.watchdogReset(silentFor: .seconds(30))])
        #expect(Self.sent(reset) == [.reset])
        Self.answerReset(&scan, at: Self.t0 + .seconds(80))
        Self.answerSetUp(&scan, at: Self.t0 + .seconds(80))
        // After a reset that brought nothing, the next period is doubled.
        #expect(scan.nextDeadline == Self.t0 + .seconds(140))
        #expect(scan.statistics.watchdogReenables == 1)
        #expect(scan.statistics.watchdogResets == 1)
    }

    @Test func rejectedEventMaskAfterResetIsNotedAndSetUpContinues() {
        var scan = ScanController(configuration: ScanConfiguration())
        Self.bringUpLegacy(&scan)
        _ = scan.handle(.hardwareError(code: 1), at: Self.t0)
        _ = scan.handle(Self.complete(.reset), at: Self.t0)
        _ = scan.handle(Self.complete(.setEventMask), at: Self.t0)
        let actions = scan.handle(Self.complete(.leSetEventMask, .invalidCommandParameters), at: Self.t0)
        #expect(Self.notes(actions) == [.eventMaskRejected(.leSetEventMask, .invalidCommandParameters)])
        #expect(Self.sent(actions) == [.readLocalSupportedCommands])
    }

    @Test func eventMaskCommandsCarryEightLittleEndianOctets() {
        #expect(
            HCICommand.setEventMask(0x2000_1FFF_FFFF_FFFF).packet
                == [0x01, 0x01, 0x0C, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x00, 0x20])
        #expect(HCICommand.leSetEventMask(0x141F).packet == [0x01, 0x01, 0x20, 0x08, 0x1F, 0x14, 0, 0, 0, 0, 0, 0])
    }

    @Test func listenModeSendsNothingEver() {
        var scan = ScanController(configuration: ScanConfiguration(mode: .listen, watchdog: .seconds(30)))
        var actions = scan.start(at: Self.t0)
        #expect(actions == [.scanning(nil)])
        actions += scan.handle(.hardwareError(code: 1), at: Self.t0)
        actions += scan.tick(at: Self.t0 + .seconds(31))
        actions += scan.tick(at: Self.t0 + .seconds(62))
        #expect(
            Self.notes(actions) == [.hardwareError(code: 1), .silent(for: .seconds(31)), .silent(for: .seconds(31))])
        #expect(scan.stop(at: Self.t0) == [.stopped])
        #expect(Self.sent(actions).isEmpty)
    }

    @Test func stopDisablesAndEndsOnCompleteOrTimeout() {
        var scan = ScanController(configuration: ScanConfiguration(commandTimeout: .seconds(2)))
        Self.bringUpLegacy(&scan)
        #expect(Self.sent(scan.stop(at: Self.t0)) == [.leSetScanEnable(false)])
        #expect(scan.handle(Self.complete(.leSetScanParameters), at: Self.t0).isEmpty, "other opcodes are ignored")
        #expect(scan.handle(Self.complete(.leSetScanEnable), at: Self.t0) == [.stopped])

        var silent = ScanController(configuration: ScanConfiguration(commandTimeout: .seconds(2)))
        Self.bringUpLegacy(&silent)
        _ = silent.stop(at: Self.t0)
        #expect(silent.tick(at: Self.t0 + .seconds(2)).last == .stopped)
    }

    static func bringUpLegacy(_ scan: inout ScanController) {
        _ = scan.start(at: t0)
        answerSetUp(&scan, at: t0)
    }

    /// Answers HCI Reset and checks the event masks are restored before set-up starts again.
    static func answerReset(_ scan: inout ScanController, at now: MonotonicInstant) {
        #expect(sent(scan.handle(complete(.reset), at: now)) == [.setEventMask(0x2000_1FFF_FFFF_FFFF)])
        // Default LE mask 0x1F plus Directed (0x0B → bit 10) and Extended (0x0D → bit 12) Advertising Reports.
        #expect(sent(scan.handle(complete(.setEventMask), at: now)) == [.leSetEventMask(0x141F)])
        #expect(sent(scan.handle(complete(.leSetEventMask), at: now)) == [.readLocalSupportedCommands])
    }

    /// Answers Read Local Supported Commands (legacy only) and the three scan commands with success.
    static func answerSetUp(_ scan: inout ScanController, at now: MonotonicInstant) {
        _ = scan.handle(supportedCommands(extended: false), at: now)
        _ = scan.handle(complete(.leSetScanEnable), at: now)
        _ = scan.handle(complete(.leSetScanParameters), at: now)
        #expect(scan.handle(complete(.leSetScanEnable), at: now) == [.scanning(.legacy)])
    }
}
