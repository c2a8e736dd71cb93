import BeaconCore
import BeaconWire
import Foundation
import Synchronization
import Testing
import Vocabulary

@testable import CLI
@testable import HCITransport
@testable import IntegrationSupport
@testable import Platform

/// A scripted controller on the far end of a SOCK_SEQPACKET socketpair: the test reads the command
/// bytes the source writes, and answers with event bytes. It can vanish (close its end: the host
/// reads end-of-stream, as after an unplug) and return (the next open gets a fresh socketpair).
final class HCIFakeController: Sendable {
    private struct State {
        var peer: Int32 = -1
        var present = true
        var connections = 0
    }

    private let state = Mutex(State())

    /// The opener to give `HCISource`.
    var opener: HCISource.Opener { { [self] () throws(HCIError) in try self.connect() } }

    var connections: Int { state.withLock { $0.connections } }

    func connect() throws(HCIError) -> any HCITransport {
        var fds: [Int32] = [-1, -1]
        let created = state.withLock { s -> Bool in
            guard s.present else { return false }
            guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0
            else {
                return false
            }
            if s.peer >= 0 { close(s.peer) }
            s.peer = fds[1]
            s.connections += 1
            return true
        }
        guard created else { throw HCIError(kind: .adapterGone, operation: "fake controller absent", errno: ENODEV) }
        return HCIDescriptor(fileDescriptor: fds[0], label: "fake")
    }

    /// Closes the controller's end and refuses reopening until `comeBack()`.
    func vanish() {
        state.withLock { s in
            s.present = false
            if s.peer >= 0 { close(s.peer) }
            s.peer = -1
        }
    }

    func comeBack() { state.withLock { $0.present = true } }

    /// Waits (up to 10 s) until the source has opened `n` connections.
    func awaitConnection(_ n: Int) -> Bool { waitUntil { self.connections >= n } }

    /// The next packet the host wrote, or nil after 10 s / end of stream. Waits for the first connection.
    func nextPacket(timeout: Int32 = 10_000) -> [UInt8]? {
        guard waitUntil({ self.state.withLock { $0.peer >= 0 } }) else { return nil }
        let fd = state.withLock { $0.peer }
        var fds = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&fds, 1, timeout) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buffer[0..<n]) : nil
    }

    /// Reads the next packet and checks it is `command`.
    @discardableResult
    func expect(_ command: HCICommand, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let packet = nextPacket()
        #expect(packet == command.packet, "expected \(command)", sourceLocation: sourceLocation)
        return packet == command.packet
    }

    func send(_ packet: [UInt8]) {
        let fd = state.withLock { $0.peer }
        _ = packet.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Command Complete (§7.7.14) with Num_HCI_Command_Packets 1 and `returnParameters` after the status.
    func complete(_ opcode: HCIOpcode, _ status: HCIStatus = .success, _ returnParameters: [UInt8] = []) {
        let parameters =
            [0x01, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8), status.rawValue] + returnParameters
        send([0x04, 0x0E, UInt8(parameters.count)] + parameters)
    }

    /// Answers Read Local Supported Commands with or without the extended scan commands (octet 37 bits 5, 6).
    func supportedCommands(extended: Bool) {
        var octets = [UInt8](repeating: 0, count: 64)
        octets[26] = 0b0000_1100
        octets[37] = extended ? 0b0110_0000 : 0
        complete(.readLocalSupportedCommands, .success, octets)
    }

    /// Answers HCI Reset and the event-mask restore that follows it.
    func answerReset(sourceLocation: SourceLocation = #_sourceLocation) {
        guard expect(.reset, sourceLocation: sourceLocation) else { return }
        complete(.reset)
        guard expect(.setEventMask(HCICommand.eventMaskWithLEMeta), sourceLocation: sourceLocation) else { return }
        complete(.setEventMask)
        guard expect(.leSetEventMask(HCICommand.leEventMaskWithAdvertisingReports), sourceLocation: sourceLocation)
        else { return }
        complete(.leSetEventMask)
    }

    /// Answers a whole legacy set-up: supported commands, disable, parameters, enable.
    func answerLegacySetUp(mode: ScanConfiguration.Mode = .passive, sourceLocation: SourceLocation = #_sourceLocation) {
        let config = ScanConfiguration(mode: mode)
        guard expect(.readLocalSupportedCommands, sourceLocation: sourceLocation) else { return }
        supportedCommands(extended: false)
        guard expect(.leSetScanEnable(false), sourceLocation: sourceLocation) else { return }
        complete(.leSetScanEnable)
        guard expect(config.parametersCommand(extended: false, includeCoded: false), sourceLocation: sourceLocation)
        else { return }
        complete(.leSetScanParameters)
        guard expect(.leSetScanEnable(true), sourceLocation: sourceLocation) else { return }
        complete(.leSetScanEnable)
    }

    /// One LE Advertising Report event (§7.7.65.2) carrying an iBeacon (big-endian major/minor).
    static let iBeaconReport: [UInt8] = {
        let uuid: [UInt8] = [
            0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0,
        ]
        let data: [UInt8] =
            [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + uuid + [0x00, 0x01, 0x00, 0x02, 0xC5]
        let report: [UInt8] =
            [0x02, 0x01, 0x03, 0x00, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, UInt8(data.count)] + data + [0xC0]
        return [0x04, 0x3E, UInt8(report.count)] + report
    }()

    func advertise() { send(Self.iBeaconReport) }
}

@Suite struct HCIFakeControllerTests {
    @Test func hostDescriptorSeesEndOfStreamWhenTheFakeVanishes() throws {
        let fake = HCIFakeController()
        let transport = try fake.connect()
        try transport.send(HCICommand.reset.packet)
        #expect(fake.nextPacket() == HCICommand.reset.packet)
        fake.complete(.reset)
        #expect(try transport.receive(timeout: .seconds(5)) == [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        fake.vanish()
        #expect(throws: HCIError.self) { try transport.receive(timeout: .seconds(5)) }
        #expect(throws: HCIError.self) { try fake.connect() }
        fake.comeBack()
        #expect(throws: Never.self) { try fake.connect() }
        transport.close()
    }

    @Test func quietDescriptorTimesOutWithNil() throws {
        let fake = HCIFakeController()
        let transport = try fake.connect()
        #expect(try transport.receive(timeout: .milliseconds(1)) == nil)
        transport.close()
    }

    @Test func aStopEndsAReceiveAtOnceAndPacketsStillComeThrough() throws {
        let fake = HCIFakeController()
        let transport = try fake.connect()
        let stop = StopSignal()
        fake.complete(.reset)
        // Not stopped: a packet comes through the two-descriptor wait as through the plain one.
        #expect(
            try transport.receive(timeout: .seconds(5), unlessStopped: stop) == [
                0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00,
            ])
        PosixThread.start(name: "stopper") {
            usleep(50_000)
            stop.stop()
        }
        let started = ContinuousClock.now
        #expect(try transport.receive(timeout: .seconds(60), unlessStopped: stop) == nil)
        // Generous: the point is "not the 60 s timeout", on a loaded machine.
        #expect(ContinuousClock.now - started < .seconds(5))
        transport.close()
    }

    @Test func iBeaconReportIsAWellFormedAdvertisingReportEvent() throws {
        #expect(try HCIPacketDecoder.controllerEvent(HCIFakeController.iBeaconReport)?.isAdvertisingReport == true)
    }
}
