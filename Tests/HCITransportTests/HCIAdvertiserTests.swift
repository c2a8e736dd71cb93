import AgentCore
import BeaconCore
import BeaconWire
import Foundation
import Synchronization
import Testing
import Vocabulary

@testable import CLI
@testable import HCITransport
@testable import IntegrationSupport

/// An advertising `HCIControllerLoop` on its own thread against an `HCIFakeController`.
final class AdvertiserHarness: Sendable {
    let fake = HCIFakeController()
    let clock = ManualClock()
    let recorder = SourceRecorder()
    let loop: HCIControllerLoop<AdvertiseController>
    private let done = DispatchSemaphore(value: 0)
    private let failure = Mutex<HCIError?>(nil)

    init(_ configuration: AdvertisingConfiguration, endOnFailure: Bool = true) {
        var options = HCILoopOptions()
        options.pollInterval = .milliseconds(5)
        options.reopenBackoffMin = .milliseconds(5)
        options.reopenBackoffMax = .milliseconds(20)
        options.endOnFailure = endOnFailure
        let clock = self.clock
        let recorder = self.recorder
        loop = HCIControllerLoop(
            AdvertiseController(configuration: configuration), opener: fake.opener, options: options,
            clock: HCIClock(wall: { clock.now() }, monotonic: { clock.monotonic() }), log: { recorder.log($0, $1) })
        Thread.detachNewThread { [self] in
            do throws(HCIError) {
                try loop.run { recorder.record($0) }
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
    }

    func join() -> Bool { done.wait(timeout: .now() + 10) == .success }
    var error: HCIError? { failure.withLock { $0 } }

    /// Read Local Supported Commands with the legacy advertising commands, Read Supported States, and
    /// optionally the extended advertising ones (§6.27 octets 25, 26, 28, 36, 37).
    func supportedCommands(extended: Bool) {
        var octets = [UInt8](repeating: 0, count: 64)
        octets[25] = 0b1011_0000
        octets[26] = 0b0000_1110
        octets[28] = 0b0000_1000
        if extended {
            octets[36] = 0b0010_1110
            octets[37] = 0b0000_0001
        }
        fake.complete(.readLocalSupportedCommands, .success, octets)
    }

    /// Expects each command in turn and answers it with success.
    func answer(_ commands: [HCICommand], sourceLocation: SourceLocation = #_sourceLocation) {
        for command in commands {
            guard fake.expect(command, sourceLocation: sourceLocation) else { return }
            fake.complete(command.opcode)
        }
    }
}

@Suite struct HCIAdvertiserTests {
    /// iBeacon AD data, flags first.
    static let data: [UInt8] =
        [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
        + [UInt8](repeating: 0xAB, count: 16) + [0x00, 0x01, 0x00, 0x02, 0xC5]
    static let configuration = AdvertisingConfiguration(data: data, interval: .milliseconds(100))

    @Test func legacySetUpThenDisableOnStop() {
        let h = AdvertiserHarness(Self.configuration)
        h.fake.expect(.readLocalSupportedCommands)
        h.supportedCommands(extended: false)
        h.answer(Self.configuration.setUpCommands(extended: false))
        #expect(waitUntil { h.recorder.count(logsContaining: "advertising with the legacy LE commands") == 1 })
        #expect(h.recorder.healths == [nil])
        h.loop.stop()
        h.answer([.leSetAdvertisingEnable(false)])
        #expect(h.join())
        #expect(h.error == nil)
    }

    @Test func extendedSetUpThenDisableAndRemoveOnStop() {
        var configuration = Self.configuration
        configuration.ownAddress = .randomStatic
        configuration.randomAddress = BluetoothAddress("c0:00:00:00:00:01")
        configuration.txPower = -10
        let h = AdvertiserHarness(configuration)
        h.fake.expect(.readLocalSupportedCommands)
        h.supportedCommands(extended: true)
        h.answer(configuration.setUpCommands(extended: true))
        #expect(waitUntil { h.recorder.count(logsContaining: "advertising with the extended LE commands") == 1 })
        h.loop.stop()
        h.answer([.leSetExtendedAdvertisingEnable(false, handle: 0x0A), .leRemoveAdvertisingSet(handle: 0x0A)])
        #expect(h.join())
        #expect(h.error == nil)
    }

    @Test func refusedCombinedStatesAdvertiseNothingAndSayWhy() {
        var configuration = Self.configuration
        configuration.alongsideScan = .active
        let h = AdvertiserHarness(configuration)
        h.fake.expect(.readLocalSupportedCommands)
        h.supportedCommands(extended: false)
        h.fake.expect(.leReadSupportedStates)
        // Everything but bit 12, non-connectable advertising + active scanning.
        h.fake.complete(.leReadSupportedStates, .success, [0xFF, 0xEF, 0xFF, 0xFF, 0xFF, 0x03, 0, 0])
        #expect(
            waitUntil {
                h.recorder.count(logsContaining: "does not support non-connectable advertising while actively scanning")
                    == 1
            })
        #expect(h.fake.nextPacket(timeout: 200) == nil)
        h.loop.stop()
        #expect(h.join())
        #expect(h.fake.nextPacket(timeout: 100) == nil)
    }

    @Test func aRejectedCommandDisablesAgainAndEndsTheLoop() {
        let h = AdvertiserHarness(Self.configuration)
        h.fake.expect(.readLocalSupportedCommands)
        h.supportedCommands(extended: false)
        h.answer([.leSetAdvertisingEnable(false)])
        h.fake.expect(Self.configuration.parametersCommand(extended: false))
        h.fake.complete(.leSetAdvertisingParameters, .invalidCommandParameters)
        h.answer([.leSetAdvertisingEnable(false)])
        #expect(h.join())
        #expect(h.error?.kind == .rejected)
        #expect(h.error?.description.contains("Invalid HCI Command Parameters (0x12)") == true)
    }

    @Test func anUnplugIsSurvivedAndAdvertisingResumes() {
        let h = AdvertiserHarness(Self.configuration)
        h.fake.expect(.readLocalSupportedCommands)
        h.supportedCommands(extended: false)
        h.answer(Self.configuration.setUpCommands(extended: false))
        #expect(waitUntil { h.recorder.healths == [nil] })
        h.fake.vanish()
        #expect(waitUntil { h.recorder.healths.count == 2 })
        h.fake.comeBack()
        #expect(h.fake.awaitConnection(2))
        h.fake.expect(.readLocalSupportedCommands)
        h.supportedCommands(extended: false)
        h.answer(Self.configuration.setUpCommands(extended: false))
        #expect(waitUntil { h.recorder.count(logsContaining: "advertising with the legacy LE commands") == 2 })
        #expect(h.loop.counters.adapterLosses == 1)
        h.loop.stop()
        h.answer([.leSetAdvertisingEnable(false)])
        #expect(h.join())
    }

    @Test func aResetByAnotherHostIsFollowedByTheSetUp() {
        let h = AdvertiserHarness(Self.configuration)
        h.fake.expect(.readLocalSupportedCommands)
        h.supportedCommands(extended: false)
        h.answer(Self.configuration.setUpCommands(extended: false))
        #expect(waitUntil { h.recorder.healths == [nil] })
        h.fake.complete(.reset)
        h.answer(Self.configuration.setUpCommands(extended: false))
        #expect(waitUntil { h.loop.procedure.statistics.foreignResets == 1 && h.loop.procedure.isAdvertising })
        h.loop.stop()
        h.answer([.leSetAdvertisingEnable(false)])
        #expect(h.join())
    }
}

/// The daemon's source: the scan, and advertising beside it (`advertise:`), on one fake controller.
@Suite struct HCISourceAdvertisingTests {
    static let scan = ScanConfiguration(mode: .passive, commandTimeout: .seconds(2), watchdog: .seconds(30))

    /// Supported commands with Read Supported States (octet 28 bit 3), legacy only.
    static func supportedWithStates(_ fake: HCIFakeController) {
        var octets = [UInt8](repeating: 0, count: 64)
        octets[25] = 0b1011_0000
        octets[26] = 0b0000_1110
        octets[28] = 0b0000_1000
        fake.complete(.readLocalSupportedCommands, .success, octets)
    }

    @Test func advertisesOnceScanningThenReadvertisesAndStopsAdvertisingFirst() {
        let advertising = HCIAdvertiserTests.configuration
        let h = SourceHarness(Self.scan, advertising: advertising)
        h.fake.answerLegacySetUp()
        h.fake.expect(.readLocalSupportedCommands)
        Self.supportedWithStates(h.fake)
        h.fake.expect(.leReadSupportedStates)
        h.fake.complete(.leReadSupportedStates, .success, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03, 0, 0])
        for command in advertising.setUpCommands(extended: false) {
            guard h.fake.expect(command) else { return }
            h.fake.complete(command.opcode)
        }
        #expect(waitUntil { h.source.advertiser?.isAdvertising == true })
        #expect(h.recorder.healths == [nil])
        #expect(
            waitUntil {
                h.recorder.advertisingStates == [.starting, .advertising(.legacy, interval: advertising.interval)]
            })
        // A reload or a layer turned advertising off (the agent's `advertise` action): only the
        // advertising disable, the scan carries on.
        (h.source as any PacketSource).advertise(nil)
        h.fake.expect(.leSetAdvertisingEnable(false))
        h.fake.complete(.leSetAdvertisingEnable)
        #expect(waitUntil { h.source.advertiser == nil })
        #expect(h.stopLegacyScan())
        #expect(h.error == nil)
    }

    @Test func refusedStatesAreSaidClearlyAndTheScanGoesOn() {
        let h = SourceHarness(Self.scan, advertising: HCIAdvertiserTests.configuration)
        h.fake.answerLegacySetUp()
        h.fake.expect(.readLocalSupportedCommands)
        Self.supportedWithStates(h.fake)
        h.fake.expect(.leReadSupportedStates)
        // No bit 8: non-connectable advertising + passive scanning.
        h.fake.complete(.leReadSupportedStates, .success, [0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0x03, 0, 0])
        #expect(
            waitUntil {
                h.recorder.count(
                    logsContaining:
                        "does not support non-connectable advertising while passively scanning (LE Read Supported States); not advertising; scanning goes on"
                ) == 1
            })
        #expect(h.recorder.advertisingStates.last?.name == "refused")
        #expect(h.recorder.advertisingStates.last?.reason?.contains("passively scanning") == true)
        h.fake.advertise()
        #expect(waitUntil { h.source.statistics.advertisingReportEvents == 1 })
        #expect(h.recorder.healths == [nil])
        // Stopping disables the scan only: nothing was advertised.
        #expect(h.stopLegacyScan())
    }
}
