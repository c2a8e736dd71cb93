import AgentCore
import BeaconCore
import BeaconWire
import Foundation
import Platform
import Synchronization
import Testing
import Vocabulary

@testable import CLI
@testable import HCITransport
@testable import IntegrationSupport

/// A monotonic clock the test moves by hand, so command timeouts and the watchdog fire on cue.
final class ManualClock: Sendable {
    private let time = Mutex(Timestamp(microseconds: 1_700_000_000_000_000))
    func now() -> Timestamp { time.withLock { $0 } }
    /// The same reading on the monotonic timeline (both move together here).
    func monotonic() -> MonotonicInstant { MonotonicInstant(nanoseconds: now().microseconds * 1000) }
    func advance(_ span: TimeSpan) { time.withLock { $0 = $0 + span } }
}

/// Everything the source delivered and logged, readable from the test thread.
final class SourceRecorder: Sendable {
    private let events = Mutex<[SourceEvent]>([])
    private let lines = Mutex<[String]>([])

    func record(_ event: SourceEvent) { events.withLock { $0.append(event) } }
    func log(_ level: LogLevel, _ message: String) { lines.withLock { $0.append("\(level): \(message)") } }

    var logs: [String] { lines.withLock { $0 } }
    var healths: [String?] {
        events.withLock {
            $0.compactMap { if case .health(let h) = $0 { return .some(h.degradedReason) } else { return nil } }
        }
    }
    func packets(incoming: Bool) -> [[UInt8]] {
        events.withLock {
            $0.flatMap(\.carriedPackets).compactMap { $0.incoming == incoming ? $0.bytes : nil }
        }
    }
    /// How many packets each packet-carrying hand-over held, in order.
    var handOverSizes: [Int] { events.withLock { $0.map(\.carriedPackets.count).filter { $0 > 0 } } }
    func count(logsContaining text: String) -> Int { logs.filter { $0.contains(text) }.count }
    /// The advertiser's states the source delivered (`SourceEvent.advertising`), in order.
    var advertisingStates: [AdvertisingState] {
        events.withLock { $0.compactMap { if case .advertising(let s) = $0 { return s } else { return nil } } }
    }
    var allPackets: [CapturedPacket] {
        events.withLock { $0.flatMap(\.carriedPackets) }
    }
    /// Each incoming packet's bytes, and whether the source marked it framed
    /// (`PacketView.isFramedLEMetaEvent`), in order.
    var incomingMarks: [(bytes: [UInt8], framed: Bool)] {
        events.withLock {
            $0.flatMap { event -> [(bytes: [UInt8], framed: Bool)] in
                guard case .packets(let batch) = event else { return [] }
                return batch.withPackets(from: 0) { cursor in
                    var marks: [(bytes: [UInt8], framed: Bool)] = []
                    while let packet = cursor.next() {
                        if packet.incoming { marks.append((Array(packet.bytes), packet.isFramedLEMetaEvent)) }
                    }
                    return marks
                }
            }
        }
    }
}

/// An `HCISource` running on its own thread against an `HCIFakeController`.
final class SourceHarness: Sendable {
    let fake = HCIFakeController()
    let clock = ManualClock()
    let recorder = SourceRecorder()
    let source: HCISource
    private let done = DispatchSemaphore(value: 0)
    private let failure = Mutex<HCIError?>(nil)

    /// `tee` also receives every event the source delivers.
    init(
        _ configuration: ScanConfiguration, advertising: AdvertisingConfiguration? = nil,
        opener: HCISource.Opener? = nil, failIfAbsentAtStart: Bool = false,
        pollInterval: TimeSpan = .milliseconds(5), readPacing: ReadPacing.Policy = .adaptive,
        realtimeStep: TimeSpan = .zero,
        tee: @escaping @Sendable (SourceEvent) -> Void = { _ in }
    ) {
        var options = HCISource.Options()
        options.pollInterval = pollInterval
        options.readPacing = readPacing
        options.reopenBackoffMin = .milliseconds(5)
        options.reopenBackoffMax = .milliseconds(20)
        options.failIfAbsentAtStart = failIfAbsentAtStart
        let clock = self.clock
        let recorder = self.recorder
        source = HCISource(
            opener: opener ?? fake.opener, configuration: configuration, advertising: advertising, options: options,
            clock: HCISource.Clock(
                wall: { clock.now() }, monotonic: { clock.monotonic() },
                realtime: { Timestamp(microseconds: SystemClock.microseconds(CLOCK_REALTIME)) + realtimeStep }),
            log: { recorder.log($0, $1) })
        Thread.detachNewThread { [self] in
            do {
                try source.run {
                    recorder.record($0)
                    tee($0)
                }
            } catch let error as HCIError {
                failure.withLock { $0 = error }
            } catch {}
            done.signal()
        }
    }

    /// Whether `run` has returned within 10 s.
    func join() -> Bool { done.wait(timeout: .now() + 10) == .success }
    var error: HCIError? { failure.withLock { $0 } }

    /// Stops the source, answers its legacy disable, and joins it.
    func stopLegacyScan(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        source.stop()
        fake.expect(.leSetScanEnable(false), sourceLocation: sourceLocation)
        fake.complete(.leSetScanEnable)
        return join()
    }

    func awaitHealth(count: Int) -> Bool { waitUntil { self.recorder.healths.count >= count } }
}

@Suite struct HCISourceTests {
    static let quickTimeouts = ScanConfiguration(mode: .passive, commandTimeout: .seconds(2), watchdog: .seconds(30))

    @Test func legacySetUpDeliversReportsAndDisablesOnStop() {
        let h = SourceHarness(Self.quickTimeouts)
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 1))
        #expect(h.recorder.healths == [nil])
        h.fake.advertise()
        #expect(waitUntil { h.recorder.packets(incoming: true).contains(HCIFakeController.iBeaconReport) })
        // The commands are delivered too, as outgoing packets, in the order sent.
        #expect(h.recorder.packets(incoming: false).first == HCICommand.readLocalSupportedCommands.packet)
        #expect(h.recorder.packets(incoming: false).count == 4)
        #expect(h.stopLegacyScan())
        #expect(h.error == nil)
        #expect(h.source.statistics.advertisingReportEvents == 1)
    }

    /// The source frames every event for its procedure, once: an LE Meta event that framed goes over
    /// marked, so the pipeline does not frame it again; a command's answer, and an event that does
    /// not frame (left to the pipeline, which counts it malformed), go over unmarked.
    @Test func anLEMetaEventTheSourceFramedGoesOverMarked() {
        let h = SourceHarness(Self.quickTimeouts)
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 1))
        var truncated = HCIFakeController.iBeaconReport
        truncated[2] += 1
        let noReports: [UInt8] = [0x04, 0x3E, 0x01, 0x14]
        h.fake.advertise()
        h.fake.send(truncated)
        h.fake.send(noReports)
        #expect(waitUntil { h.recorder.incomingMarks.contains { $0.bytes == noReports } })
        let marks = h.recorder.incomingMarks
        #expect(marks.filter { $0.bytes == HCIFakeController.iBeaconReport }.map { $0.framed } == [true])
        #expect(marks.filter { $0.bytes == truncated }.map { $0.framed } == [false])
        #expect(marks.filter { $0.bytes == noReports }.map { $0.framed } == [true])
        // The set-up's command answers.
        let answers = marks.filter { $0.bytes[1] == 0x0E }
        #expect(answers.count == 4 && answers.allSatisfy { !$0.framed })
        #expect(h.stopLegacyScan())
        #expect(h.source.statistics.advertisingReportEvents == 1)
    }

    /// Reports already waiting in the socket go over in one hand-over with the one that woke the
    /// source (one pipeline wake-up per burst), in order, each counted.
    @Test func reportsWaitingInTheSocketAreHandedOverTogether() {
        let firstReport = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let held = Mutex(false)
        let h = SourceHarness(
            Self.quickTimeouts,
            tee: { event in
                guard
                    event.carriedPackets.contains(where: { $0.incoming && $0.bytes == HCIFakeController.iBeaconReport }
                    ),
                    !held.withLock({ wasHeld in
                        defer { wasHeld = true }
                        return wasHeld
                    })
                else { return }
                firstReport.signal()
                _ = release.wait(timeout: .now() + 10)  // the source thread waits here while five more arrive
            })
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 1))
        h.fake.advertise()
        #expect(firstReport.wait(timeout: .now() + 10) == .success)
        for _ in 0..<5 { h.fake.advertise() }
        release.signal()
        #expect(
            waitUntil { h.recorder.packets(incoming: true).filter { $0 == HCIFakeController.iBeaconReport }.count == 6 }
        )
        let reportHandOvers = h.recorder.handOverSizes.suffix(2)
        #expect(Array(reportHandOvers) == [1, 5], "\(h.recorder.handOverSizes)")
        #expect(h.stopLegacyScan())
        #expect(h.source.statistics.advertisingReportEvents == 6)
    }

    /// `scanner.read_interval`: once the socket is found empty it is left to queue for the interval,
    /// so reports arriving 20 ms apart go over together, each stamped when the kernel received it
    /// (the test's wall clock stands still: a stamp taken at the read would be the same for all).
    @Test func aReadIntervalHoldsReportsInTheSocketAndKeepsTheirArrivalTimes() {
        let h = SourceHarness(Self.quickTimeouts, pollInterval: .seconds(1), readPacing: .fixed(.milliseconds(250)))
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 1))
        let reports = { h.recorder.allPackets.filter { $0.incoming && $0.bytes == HCIFakeController.iBeaconReport } }
        h.fake.advertise()
        #expect(waitUntil { reports().count == 1 })
        let before = h.recorder.handOverSizes.count
        // The hold began with that read: these five land in the socket within it.
        for _ in 0..<5 {
            h.fake.advertise()
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(waitUntil { reports().count == 6 })
        // One hand-over for the five (two if a loaded machine let the hold end among them), not five.
        #expect(h.recorder.handOverSizes.count - before <= 2, "\(h.recorder.handOverSizes)")
        let stamps = reports().suffix(5).map(\.timestamp.microseconds)
        let gaps = zip(stamps.dropFirst(), stamps).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 10_000 && $0 < 1_000_000 }, "gaps \(gaps) µs")
        #expect(h.stopLegacyScan())
    }

    /// CLOCK_REALTIME stepped (NTP) between the kernel's stamp and the read: the age would be an hour,
    /// so the report is stamped when read (the test's wall clock), not an hour back.
    @Test func aReceiveTimeFromBeforeARealtimeStepIsNotTrusted() {
        let h = SourceHarness(
            Self.quickTimeouts, pollInterval: .seconds(1), readPacing: .fixed(.milliseconds(50)),
            realtimeStep: .seconds(3600)
        )
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 1))
        h.fake.advertise()
        let reports = { h.recorder.allPackets.filter { $0.incoming && $0.bytes == HCIFakeController.iBeaconReport } }
        #expect(waitUntil { reports().count == 1 })
        #expect(reports().first?.timestamp == h.clock.now())
        #expect(h.stopLegacyScan())
    }

    @Test func stopIsSeenAtOnceNotAfterThePollInterval() {
        // A minute's poll interval, and the watchdog (on the test's clock, which stands still) 30 s
        // away: without the stop waking the socket wait, the disable would come only then.
        let h = SourceHarness(Self.quickTimeouts, pollInterval: .seconds(60))
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 1))
        #expect(waitUntil { h.recorder.count(logsContaining: "scanning with") == 1 })
        let started = ContinuousClock.now
        h.source.stop()
        h.fake.expect(.leSetScanEnable(false))
        // Generous, for a loaded machine: the point is "not 30 s".
        #expect(ContinuousClock.now - started < .seconds(5))
        // The disable handshake then waits on the socket alone, as before the stop.
        h.fake.complete(.leSetScanEnable)
        #expect(h.join())
        #expect(h.error == nil)
    }

    @Test func extendedSetUpUsesOnlyTheExtendedCommands() {
        let h = SourceHarness(ScanConfiguration(mode: .active))
        h.fake.expect(.readLocalSupportedCommands)
        h.fake.supportedCommands(extended: true)
        h.fake.expect(.leSetExtendedScanEnable(false))
        h.fake.complete(.leSetExtendedScanEnable)
        // Active, LE 1M only, 100 ms = 160 slots.
        h.fake.expect(HCICommand(opcode: .leSetExtendedScanParameters, parameters: [0, 0, 1, 1, 0xA0, 0, 0xA0, 0]))
        h.fake.complete(.leSetExtendedScanParameters)
        h.fake.expect(.leSetExtendedScanEnable(true))
        h.fake.complete(.leSetExtendedScanEnable)
        #expect(h.awaitHealth(count: 1))
        h.source.stop()
        h.fake.expect(.leSetExtendedScanEnable(false))
        h.fake.complete(.leSetExtendedScanEnable)
        #expect(h.join())
        #expect(h.recorder.count(logsContaining: "scanning with the extended LE commands") == 1)
    }

    @Test func rejectedExtendedCommandFallsBackToLegacyWithoutMixing() {
        let h = SourceHarness(Self.quickTimeouts)
        h.fake.expect(.readLocalSupportedCommands)
        h.fake.supportedCommands(extended: true)
        h.fake.expect(.leSetExtendedScanEnable(false))
        h.fake.complete(.leSetExtendedScanEnable)
        h.fake.expect(Self.quickTimeouts.parametersCommand(extended: true, includeCoded: false))
        // Rejected through Command Status, as some controllers answer unknown commands.
        h.fake.send([0x04, 0x0F, 0x04, HCIStatus.unknownCommand.rawValue, 0x01, 0x41, 0x20])
        h.fake.expect(.leSetScanEnable(false))
        h.fake.complete(.leSetScanEnable)
        h.fake.expect(Self.quickTimeouts.parametersCommand(extended: false, includeCoded: false))
        h.fake.complete(.leSetScanParameters)
        h.fake.expect(.leSetScanEnable(true))
        h.fake.complete(.leSetScanEnable)
        #expect(h.awaitHealth(count: 1))
        #expect(h.stopLegacyScan())
        let opcodes = h.recorder.packets(incoming: false).map {
            HCIOpcode(rawValue: UInt16($0[1]) | UInt16($0[2]) << 8)
        }
        let firstLegacy = opcodes.firstIndex(of: .leSetScanEnable) ?? opcodes.count
        #expect(
            !opcodes[firstLegacy...].contains { $0.ocf >= 0x41 && $0.ogf == 0x08 },
            "no extended command after the fallback")
        #expect(h.recorder.count(logsContaining: "Unknown HCI Command (0x01); falling back") == 1)
        #expect(h.source.statistics.scan.fallbacks == 1)
    }

    @Test func commandTimeoutResetsThenReopensAndRecovers() {
        let h = SourceHarness(Self.quickTimeouts)
        h.fake.expect(.readLocalSupportedCommands)
        h.clock.advance(.seconds(2))
        h.fake.expect(.reset)
        h.clock.advance(.seconds(2))
        #expect(h.awaitHealth(count: 1))
        #expect(h.recorder.healths.first == .some("HCI Reset timed out"))
        #expect(h.fake.awaitConnection(2))
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 2))
        #expect(h.recorder.healths.last == .some(nil))
        #expect(h.source.statistics.scan.commandTimeouts == 2)
        #expect(h.stopLegacyScan())
    }

    @Test func hardwareErrorEventResetsTheControllerAndSetsUpAgain() {
        let h = SourceHarness(Self.quickTimeouts)
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 1))
        h.fake.send([0x04, 0x10, 0x01, 0x2A])
        h.fake.answerReset()
        h.fake.answerLegacySetUp()
        #expect(waitUntil { h.recorder.count(logsContaining: "scanning with the legacy") == 2 })
        #expect(h.recorder.count(logsContaining: "Hardware Error 0x2a") == 1)
        #expect(h.source.statistics.scan.hardwareErrors == 1)
        #expect(h.fake.connections == 1, "a hardware error is handled on the open socket")
        #expect(h.stopLegacyScan())
    }

    @Test func adapterVanishingMidStreamIsSurvivedAndTheScanResumes() {
        let h = SourceHarness(Self.quickTimeouts)
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 1))
        h.fake.advertise()
        #expect(
            waitUntil { h.recorder.packets(incoming: true).filter { $0 == HCIFakeController.iBeaconReport }.count == 1 }
        )
        h.fake.vanish()
        #expect(h.awaitHealth(count: 2))
        #expect((h.recorder.healths[1] ?? "").contains("went away"))
        // While absent, reopening keeps failing quietly.
        #expect(waitUntil { h.source.statistics.failedOpens >= 3 })
        h.fake.comeBack()
        #expect(h.fake.awaitConnection(2))
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 3))
        #expect(h.recorder.healths.last == .some(nil))
        h.fake.advertise()
        #expect(
            waitUntil { h.recorder.packets(incoming: true).filter { $0 == HCIFakeController.iBeaconReport }.count == 2 }
        )
        let warnings = h.recorder.logs.filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1, "the outage is logged once, retries only at debug: \(warnings)")
        #expect(warnings.first?.contains("went away") == true)
        #expect(h.source.statistics.adapterLosses == 1)
        #expect(h.source.statistics.reopens == 1)
        #expect(h.stopLegacyScan())
    }

    @Test func silentAdapterIsReenabledThenReset() {
        let h = SourceHarness(Self.quickTimeouts)
        h.fake.answerLegacySetUp()
        #expect(waitUntil { h.recorder.count(logsContaining: "scanning with") == 1 })
        h.clock.advance(.seconds(30))
        h.fake.expect(.leSetScanEnable(false))
        h.fake.complete(.leSetScanEnable)
        h.fake.expect(.leSetScanEnable(true))
        h.fake.complete(.leSetScanEnable)
        #expect(waitUntil { h.recorder.count(logsContaining: "scanning with") == 2 })
        h.clock.advance(.seconds(30))
        h.fake.answerReset()
        h.fake.answerLegacySetUp()
        #expect(waitUntil { h.recorder.count(logsContaining: "scanning with") == 3 })
        #expect(h.source.statistics.scan.watchdogReenables == 1)
        #expect(h.source.statistics.scan.watchdogResets == 1)
        #expect(h.recorder.healths == [nil], "a quiet room is not a degraded gateway")
        #expect(h.stopLegacyScan())
    }

    @Test func listenModeNeverWritesToTheAdapter() {
        let h = SourceHarness(ScanConfiguration(mode: .listen, watchdog: .seconds(30)))
        #expect(h.awaitHealth(count: 1))
        h.fake.advertise()
        #expect(waitUntil { h.recorder.packets(incoming: true).count == 1 })
        h.fake.send([0x04, 0x10, 0x01, 0x01])
        h.clock.advance(.seconds(31))
        #expect(waitUntil { h.recorder.count(logsContaining: "listen mode: no advertising report") == 1 })
        h.source.stop()
        #expect(h.join())
        // The host end is closed now; anything it ever wrote would still be queued before end-of-stream.
        #expect(h.fake.nextPacket(timeout: 1000) == nil)
        #expect(h.recorder.packets(incoming: false).isEmpty)
    }

    @Test(arguments: [EAFNOSUPPORT, EPERM])
    func missingBluetoothOrPrivilegeEndsRunWithTheError(code: Int32) {
        let h = SourceHarness(
            Self.quickTimeouts, opener: { () throws(HCIError) in throw HCIError(errno: code, operation: "socket") })
        #expect(h.join())
        #expect(h.error?.errno == code)
        #expect(h.error?.isFatal == true)
    }

    @Test func absentAdapterFailsFastOnlyWhenAskedTo() {
        let absent: HCISource.Opener = { () throws(HCIError) in
            throw HCIError(kind: .noSuchAdapter, operation: "'hci3'", detail: "found: hci0 11:22:33:44:55:66")
        }
        let interactive = SourceHarness(Self.quickTimeouts, opener: absent, failIfAbsentAtStart: true)
        #expect(interactive.join())
        #expect(interactive.error?.kind == .noSuchAdapter)

        let daemon = SourceHarness(Self.quickTimeouts, opener: absent)
        #expect(daemon.awaitHealth(count: 1))
        #expect(
            daemon.recorder.healths == [.some("no Bluetooth adapter matches 'hci3' (found: hci0 11:22:33:44:55:66)")])
        daemon.source.stop()
        #expect(daemon.join())
        #expect(daemon.error == nil)
    }
}
