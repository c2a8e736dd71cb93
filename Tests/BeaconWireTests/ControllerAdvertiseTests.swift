import BeaconWire
import Testing
import Vocabulary

/// The advertising state machine and its command bytes, driven by hand.
@Suite struct ControllerAdvertiseTests {
    static let t0 = MonotonicInstant(nanoseconds: 1_000_000_000_000)
    static let data = BeaconVectors.iBeacon
    static let random = BluetoothAddress("c1:22:33:44:55:66")!

    /// Supported_Commands with the legacy advertising and scan commands, Read Supported States
    /// (octet 28 bit 3), and optionally the extended advertising ones (octet 36 bits 2, 3, 5; 37 bit 0).
    static func supportedCommands(extended: Bool, states: Bool = true) -> ControllerEvent {
        var octets = [UInt8](repeating: 0, count: 64)
        octets[25] = 0b1011_0000
        octets[26] = 0b0000_1110
        octets[28] = states ? 0b0000_1000 : 0
        if extended {
            octets[36] = 0b0010_1110
            octets[37] = 0b0110_0001
        }
        return .commandComplete(.init(opcode: .readLocalSupportedCommands, returnParameters: [0x00] + octets))
    }

    static func complete(_ opcode: HCIOpcode, _ status: HCIStatus = .success, _ more: [UInt8] = []) -> ControllerEvent {
        .commandComplete(.init(opcode: opcode, returnParameters: [status.rawValue] + more))
    }

    static func sent(_ actions: [AdvertiseController.Action]) -> [HCICommand] {
        actions.compactMap { if case .send(let c) = $0 { return c } else { return nil } }
    }

    /// Answers every command with success until nothing more is sent; returns all commands and the last actions.
    static func answerAll(
        _ controller: inout AdvertiseController, _ first: [AdvertiseController.Action],
        extended: Bool, states: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03, 0, 0], hciVersion: UInt8 = 0x0B
    ) -> (commands: [HCICommand], last: [AdvertiseController.Action]) {
        var actions = first
        var commands: [HCICommand] = []
        while let command = sent(actions).last {
            commands.append(command)
            let answer: ControllerEvent
            switch command.opcode {
            case .readLocalSupportedCommands: answer = supportedCommands(extended: extended)
            case .leReadSupportedStates: answer = complete(.leReadSupportedStates, .success, states)
            // §7.4.1: HCI_Version, HCI_Subversion, LMP_Version, Company_Identifier, LMP_Subversion.
            case .readLocalVersionInformation:
                answer = complete(
                    .readLocalVersionInformation, .success, [hciVersion, 0, 0, hciVersion, 0xF1, 0x05, 0, 0])
            default: answer = complete(command.opcode)
            }
            actions = controller.handle(answer, at: t0)
        }
        return (commands, actions)
    }

    /// Before 5.0 a non-connectable legacy advertisement needs ≥ 100 ms (4.2, Vol 2, Part E, §7.8.5):
    /// a 4.2 controller (HCI_Version 8) gets 100 ms and a note; a 5.0 one (9) the 20 ms asked for.
    @Test(arguments: [(UInt8(8), UInt16(0x00A0), true), (UInt8(9), UInt16(0x0020), false)])
    func aPre50ControllerGetsTheLegacyNonConnectableMinimum(version: UInt8, units: UInt16, raised: Bool) {
        var controller = AdvertiseController(
            configuration: AdvertisingConfiguration(data: Self.data, interval: .milliseconds(20)))
        var actions = controller.start(at: Self.t0)
        var commands: [HCICommand] = []
        var notes: [AdvertiseController.Note] = []
        while let command = Self.sent(actions).last {
            commands.append(command)
            let answer: ControllerEvent =
                switch command.opcode {
                case .readLocalSupportedCommands: Self.supportedCommands(extended: false)
                case .readLocalVersionInformation:
                    Self.complete(.readLocalVersionInformation, .success, [version, 0, 0, version, 0xF1, 0x05, 0, 0])
                default: Self.complete(command.opcode)
                }
            actions = controller.handle(answer, at: Self.t0)
            notes += actions.compactMap { if case .note(let n) = $0 { n } else { nil } }
        }
        #expect(commands.map(\.opcode).prefix(2) == [.readLocalSupportedCommands, .readLocalVersionInformation])
        let parameters = commands.first { $0.opcode == .leSetAdvertisingParameters }
        #expect(
            parameters?.parameters.prefix(4) == [
                UInt8(units & 0xFF), UInt8(units >> 8), UInt8(units & 0xFF), UInt8(units >> 8),
            ])
        #expect(notes.contains(.intervalRaised(hciVersion: version, from: .milliseconds(20))) == raised)
        #expect(controller.isAdvertising)
        #expect(controller.configuration.interval == (raised ? .milliseconds(100) : .milliseconds(20)))
    }

    /// Connectable, the extended set, or 100 ms and more: no version read at all.
    @Test func noVersionReadWhenTheIntervalIsAllowedEverywhere() {
        for config in [
            AdvertisingConfiguration(data: Self.data, interval: .milliseconds(100)),
            AdvertisingConfiguration(data: Self.data, interval: .milliseconds(20), connectable: true),
        ] {
            var controller = AdvertiseController(configuration: config)
            let (commands, _) = Self.answerAll(
                &controller, controller.start(at: Self.t0), extended: false, hciVersion: 6)
            #expect(!commands.contains(.readLocalVersionInformation))
        }
        var extended = AdvertiseController(
            configuration: AdvertisingConfiguration(data: Self.data, interval: .milliseconds(20)))
        let (commands, _) = Self.answerAll(&extended, extended.start(at: Self.t0), extended: true, hciVersion: 6)
        #expect(!commands.contains(.readLocalVersionInformation))
        #expect(commands.contains { $0.opcode == .leSetExtendedAdvertisingParameters })
    }

    @Test func legacyCommandBytesFollowTheSpecLayouts() {
        let config = AdvertisingConfiguration(
            data: Self.data, interval: .milliseconds(100), ownAddress: .randomStatic, randomAddress: Self.random)
        // §7.8.5: interval 0x00A0 twice, ADV_NONCONN_IND, random, peer type/address zero, channels 0x07, policy 0.
        #expect(
            config.parametersCommand(extended: false).packet == [
                0x01, 0x06, 0x20, 0x0F, 0xA0, 0x00, 0xA0, 0x00, 0x03, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0x07, 0x00,
            ])
        // §7.8.7: length, then 31 octets zero-padded.
        let dataCommand = config.dataCommand(extended: false)
        #expect(Array(dataCommand.packet.prefix(5)) == [0x01, 0x08, 0x20, 0x20, 30])
        #expect(dataCommand.parameters == [30] + Self.data + [0])
        #expect(config.enableCommand(true, extended: false).packet == [0x01, 0x0A, 0x20, 0x01, 0x01])
        #expect(
            config.randomAddressCommand(extended: false)?.packet == [
                0x01, 0x05, 0x20, 0x06, 0x66, 0x55, 0x44, 0x33, 0x22, 0xC1,
            ])
        #expect(HCICommand.leReadSupportedStates.packet == [0x01, 0x1C, 0x20, 0x00])
        var connectable = config
        connectable.connectable = true
        connectable.ownAddress = .public
        #expect(connectable.parametersCommand(extended: false).parameters[4...5] == [0x00, 0x00])
    }

    @Test func extendedCommandBytesFollowTheSpecLayouts() {
        let config = AdvertisingConfiguration(
            data: Self.data, interval: .milliseconds(10_240), txPower: -4, ownAddress: .randomStatic,
            randomAddress: Self.random)
        // §7.8.53: handle 0x0A, properties 0x0010 (legacy ADV_NONCONN_IND), 0x004000 twice, channels,
        // own random, peer zero, policy, TX power −4, 1M, skip 0, 1M, SID 0, no notifications.
        #expect(
            config.parametersCommand(extended: true).packet == [
                0x01, 0x36, 0x20, 25, 0x0A, 0x10, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x00, 0x07, 0x01, 0x00,
                0, 0, 0, 0, 0, 0, 0x00, 0xFC, 0x01, 0x00, 0x01, 0x00, 0x00,
            ])
        // §7.8.54: handle, operation complete, no fragmentation, length, data.
        #expect(config.dataCommand(extended: true).packet == [0x01, 0x37, 0x20, 34, 0x0A, 0x03, 0x01, 30] + Self.data)
        // §7.8.56: enable, one set, handle, duration 0, no event limit.
        #expect(
            config.enableCommand(true, extended: true).packet == [0x01, 0x39, 0x20, 0x06, 0x01, 0x01, 0x0A, 0, 0, 0])
        #expect(config.enableCommand(false, extended: true).parameters == [0x00, 0x01, 0x0A, 0, 0, 0])
        #expect(HCICommand.leRemoveAdvertisingSet(handle: 0x0A).packet == [0x01, 0x3C, 0x20, 0x01, 0x0A])
        #expect(
            config.randomAddressCommand(extended: true)?.packet == [
                0x01, 0x35, 0x20, 0x07, 0x0A, 0x66, 0x55, 0x44, 0x33, 0x22, 0xC1,
            ])
        var connectable = config
        connectable.connectable = true
        #expect(connectable.parametersCommand(extended: true).parameters[1...2] == [0x13, 0x00])
    }

    @Test func intervalUnitsAreClampedToTheSpecRange() {
        #expect(AdvertisingConfiguration(data: [], interval: .milliseconds(20)).intervalUnits == 0x20)
        #expect(AdvertisingConfiguration(data: [], interval: .milliseconds(1)).intervalUnits == 0x20)
        #expect(AdvertisingConfiguration(data: [], interval: .milliseconds(10_240)).intervalUnits == 0x4000)
        #expect(AdvertisingConfiguration(data: [], interval: .seconds(60)).intervalUnits == 0x4000)
        #expect(
            AdvertisingConfiguration.randomStaticAddress(fromRandomBits: 0x0012_3456_789A).description
                == "c0:12:34:56:78:9a")
    }

    @Test func legacySetUpDisablesThenSetsAddressParametersDataAndEnables() {
        let config = AdvertisingConfiguration(data: Self.data, ownAddress: .randomStatic, randomAddress: Self.random)
        var adv = AdvertiseController(configuration: config)
        let (commands, last) = Self.answerAll(&adv, adv.start(at: Self.t0), extended: false)
        #expect(
            commands.map(\.opcode) == [
                .readLocalSupportedCommands, .leSetAdvertisingEnable, .leSetRandomAddress, .leSetAdvertisingParameters,
                .leSetAdvertisingData, .leSetAdvertisingEnable,
            ])
        #expect(commands[1].parameters == [0x00])
        #expect(last == [.advertising(.legacy)])
        #expect(adv.isAdvertising)
    }

    @Test func extendedSetUpUsesOnlyExtendedCommandsAndRemovesAStaleSet() {
        let config = AdvertisingConfiguration(data: Self.data, ownAddress: .randomStatic, randomAddress: Self.random)
        var adv = AdvertiseController(configuration: config)
        var actions = adv.start(at: Self.t0)
        actions = adv.handle(Self.supportedCommands(extended: true), at: Self.t0)
        // Nothing to disable or remove yet: Unknown Advertising Identifier (0x42) is tolerated.
        #expect(Self.sent(actions).map(\.opcode) == [.leSetExtendedAdvertisingEnable])
        actions = adv.handle(Self.complete(.leSetExtendedAdvertisingEnable, HCIStatus(rawValue: 0x42)), at: Self.t0)
        #expect(Self.sent(actions).map(\.opcode) == [.leRemoveAdvertisingSet])
        actions = adv.handle(Self.complete(.leRemoveAdvertisingSet, HCIStatus(rawValue: 0x42)), at: Self.t0)
        let (commands, last) = Self.answerAll(&adv, actions, extended: true)
        #expect(
            commands.map(\.opcode) == [
                .leSetExtendedAdvertisingParameters, .leSetAdvertisingSetRandomAddress, .leSetExtendedAdvertisingData,
                .leSetExtendedAdvertisingEnable,
            ])
        #expect(last == [.advertising(.extended)])
    }

    @Test func stopDisablesAndRemovesTheExtendedSet() {
        var adv = AdvertiseController(configuration: AdvertisingConfiguration(data: Self.data))
        _ = Self.answerAll(&adv, adv.start(at: Self.t0), extended: true)
        let (commands, last) = Self.answerAll(&adv, adv.stop(at: Self.t0), extended: true)
        #expect(
            commands == [.leSetExtendedAdvertisingEnable(false, handle: 0x0A), .leRemoveAdvertisingSet(handle: 0x0A)])
        #expect(last == [.stopped])
        #expect(adv.isStopped)
    }

    @Test func stopOfLegacyAdvertisingDisablesOnly() {
        var adv = AdvertiseController(configuration: AdvertisingConfiguration(data: Self.data))
        _ = Self.answerAll(&adv, adv.start(at: Self.t0), extended: false)
        let actions = adv.stop(at: Self.t0)
        #expect(Self.sent(actions) == [.leSetAdvertisingEnable(false)])
        #expect(adv.handle(Self.complete(.leSetAdvertisingEnable, .commandDisallowed), at: Self.t0) == [.stopped])
    }

    @Test func aRejectedExtendedCommandFallsBackToLegacyForGood() {
        var adv = AdvertiseController(configuration: AdvertisingConfiguration(data: Self.data))
        _ = adv.start(at: Self.t0)
        _ = adv.handle(Self.supportedCommands(extended: true), at: Self.t0)
        _ = adv.handle(Self.complete(.leSetExtendedAdvertisingEnable), at: Self.t0)
        _ = adv.handle(Self.complete(.leRemoveAdvertisingSet), at: Self.t0)
        let actions = adv.handle(
            Self.complete(.leSetExtendedAdvertisingParameters, .unsupportedFeatureOrParameterValue), at: Self.t0)
        #expect(
            actions.contains(
                .note(
                    .fallingBackToLegacy(
                        rejected: .leSetExtendedAdvertisingParameters, status: .unsupportedFeatureOrParameterValue))))
        #expect(Self.sent(actions) == [.leRemoveAdvertisingSet(handle: 0x0A)])
        let (commands, last) = Self.answerAll(&adv, actions, extended: true)
        #expect(
            commands.dropFirst().map(\.opcode) == [
                .leSetAdvertisingEnable, .leSetAdvertisingParameters, .leSetAdvertisingData, .leSetAdvertisingEnable,
            ])
        #expect(last == [.advertising(.legacy)])
        // A later full set-up stays legacy, though the controller still lists the extended commands.
        let again = Self.answerAll(&adv, adv.start(at: Self.t0), extended: true)
        #expect(again.last == [.advertising(.legacy)])
        #expect(adv.statistics.fallbacks == 1)
    }

    @Test func aLegacyRejectionDisablesAgainAndFails() {
        var adv = AdvertiseController(configuration: AdvertisingConfiguration(data: Self.data))
        _ = adv.start(at: Self.t0)
        _ = adv.handle(Self.supportedCommands(extended: false), at: Self.t0)
        _ = adv.handle(Self.complete(.leSetAdvertisingEnable), at: Self.t0)
        let actions = adv.handle(Self.complete(.leSetAdvertisingParameters, .invalidCommandParameters), at: Self.t0)
        #expect(Self.sent(actions) == [.leSetAdvertisingEnable(false)])
        #expect(
            adv.handle(Self.complete(.leSetAdvertisingEnable), at: Self.t0)
                == [.failed(.rejected(.leSetAdvertisingParameters, .invalidCommandParameters))])
    }

    @Test(arguments: [
        (ScanConfiguration.Mode.passive, false, 8), (.active, false, 12), (.passive, true, 10), (.active, true, 14),
    ])
    func alongsideAScanTheSupportedStatesDecide(mode: ScanConfiguration.Mode, connectable: Bool, bit: Int) {
        var config = AdvertisingConfiguration(data: Self.data, connectable: connectable, alongsideScan: mode)
        config.refresh = .zero
        // Every combination but the one needed.
        var states = [UInt8](repeating: 0xFF, count: 8)
        states[bit / 8] &= ~(1 << UInt8(bit % 8))
        var refused = AdvertiseController(configuration: config)
        let (commands, last) = Self.answerAll(&refused, refused.start(at: Self.t0), extended: false, states: states)
        #expect(commands == [.readLocalSupportedCommands, .leReadSupportedStates])
        #expect(last == [.refused(.statesNotSupported(connectable: connectable, activeScan: mode == .active))])
        #expect(refused.isRefused)
        #expect(refused.nextDeadline == nil)
        #expect(refused.stop(at: Self.t0) == [.stopped])

        var allowed = AdvertiseController(configuration: config)
        let ok = Self.answerAll(
            &allowed, allowed.start(at: Self.t0), extended: false, states: [UInt8](repeating: 0xFF, count: 8))
        #expect(ok.last == [.advertising(.legacy)])
    }

    @Test func aForcedCommandSetMatchesTheScan() {
        var adv = AdvertiseController(
            configuration: AdvertisingConfiguration(data: Self.data), forcedCommandSet: .legacy)
        #expect(Self.answerAll(&adv, adv.start(at: Self.t0), extended: true).last == [.advertising(.legacy)])
    }

    @Test func aResetByAnotherHostIsFollowedByASetUpAtOnce() {
        var adv = AdvertiseController(configuration: AdvertisingConfiguration(data: Self.data))
        _ = Self.answerAll(&adv, adv.start(at: Self.t0), extended: false)
        let actions = adv.handle(Self.complete(.reset), at: Self.t0)
        #expect(actions.first == .note(.resetByAnotherHost))
        let (commands, last) = Self.answerAll(&adv, actions, extended: false)
        #expect(
            commands.map(\.opcode) == [
                .leSetAdvertisingEnable, .leSetAdvertisingParameters, .leSetAdvertisingData, .leSetAdvertisingEnable,
            ])
        #expect(last == [.advertising(.legacy)])
        #expect(adv.statistics.foreignResets == 1)
    }

    @Test func theSetUpIsRefreshedEveryPeriod() {
        var adv = AdvertiseController(configuration: AdvertisingConfiguration(data: Self.data, refresh: .seconds(30)))
        _ = Self.answerAll(&adv, adv.start(at: Self.t0), extended: false)
        #expect(adv.nextDeadline == Self.t0 + .seconds(30))
        #expect(adv.tick(at: Self.t0 + .seconds(29)) == [])
        let actions = adv.tick(at: Self.t0 + .seconds(30))
        #expect(actions.first == .note(.refreshing))
        #expect(Self.sent(actions) == [.leSetAdvertisingEnable(false)])
    }

    @Test func aTimeoutResetsOnceThenFails() {
        var adv = AdvertiseController(configuration: AdvertisingConfiguration(data: Self.data))
        _ = adv.start(at: Self.t0)
        let late = Self.t0 + .seconds(3)
        let actions = adv.tick(at: late)
        #expect(actions.first == .note(.commandTimedOut(.readLocalSupportedCommands)))
        #expect(Self.sent(actions) == [.reset])
        _ = adv.handle(Self.complete(.reset), at: late)
        _ = adv.handle(Self.complete(.setEventMask), at: late)
        _ = adv.handle(Self.complete(.leSetEventMask), at: late)
        #expect(
            adv.tick(at: late + .seconds(3)) == [
                .note(.commandTimedOut(.readLocalSupportedCommands)), .failed(.timedOut(.readLocalSupportedCommands)),
            ])
    }

    @Test func aHardwareErrorResetsAndSetsUpAgain() {
        var adv = AdvertiseController(configuration: AdvertisingConfiguration(data: Self.data))
        _ = Self.answerAll(&adv, adv.start(at: Self.t0), extended: false)
        let actions = adv.handle(.hardwareError(code: 0x01), at: Self.t0)
        #expect(Self.sent(actions) == [.reset])
        let (commands, last) = Self.answerAll(&adv, actions, extended: false)
        #expect(
            commands.prefix(4).map(\.opcode) == [.reset, .setEventMask, .leSetEventMask, .readLocalSupportedCommands])
        #expect(last == [.advertising(.legacy)])
    }

    @Test func supportedStatesReadBitsLittleEndian() {
        let states = LESupportedStates(returnParameters: [0x00, 0x00, 0x11, 0x00])
        #expect(states.contains(bit: 8) && states.contains(bit: 12))
        #expect(!states.contains(bit: 10) && !states.contains(bit: 40))
        #expect(states.allowsAdvertising(connectable: false, whileScanning: true))
        #expect(!states.allowsAdvertising(connectable: true, whileScanning: false))
    }
}
