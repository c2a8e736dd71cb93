import BeaconWire
import CLI
import Foundation
import Testing
import Vocabulary

@testable import IntegrationSupport

/// A replay at `--speed max` outruns any broker; the agent must slow the replay down rather than
/// let its bounded outbox drop an enter or exit.
@Suite(.serialized) struct RunBackpressureTests {
    /// One legacy LE Advertising Report event carrying an iBeacon (Core Spec Vol 4, Part E, §7.7.65.2).
    static func iBeaconEvent(minor: UInt16, address: UInt64, rssi: Int8) -> [UInt8] {
        var ad: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
        ad += [0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0]
        ad += [0x00, 0x07, UInt8(minor >> 8), UInt8(minor & 0xFF), 0xC5]  // major 7, minor (big-endian), −59
        var report: [UInt8] = [0x01, 0x00, 0x00]  // one report, ADV_IND, public address
        for i in 0..<6 { report.append(UInt8(truncatingIfNeeded: address >> (8 * UInt64(i)))) }
        report.append(UInt8(ad.count))
        report += ad
        report.append(UInt8(bitPattern: rssi))
        return [0x04, 0x3E, UInt8(report.count + 1), 0x02] + report
    }

    @Test func aMaxSpeedReplayThroughATinyOutboxDeliversEveryEnterAndExit() throws {
        let beacons = 600
        var bytes = BtsnoopWriter.fileHeader()
        let start = Timestamp.seconds(1_700_000_000)
        for i in 0..<beacons {
            let packet = CapturedPacket(
                timestamp: start + .milliseconds(Int64(i) * 20),
                bytes: Self.iBeaconEvent(minor: UInt16(i), address: 0xC0FF_EE00_0000 + UInt64(i), rssi: -60))
            bytes += BtsnoopWriter.record(packet)
        }
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/+/+/+/+/event")
        defer { subscriber.stop() }
        // Indented under the workspace's `mqtt:` section; 100 is the smallest outbox allowed.
        let workspace = try Workspace(port: broker.port, gateway: "gw", extra: "  outbox_limit: 100")
        let capture = workspace.directory.appendingPathComponent("many.log")
        try Data(bytes).write(to: capture)
        let agent = try workspace.start(["--replay", capture.path, "--speed", "max"])
        #expect(agent.wait(timeout: 60) == 0, "\(workspace.logText)")
        #expect(subscriber.waitFor(timeout: 20) { $0.count >= 2 * beacons }, "\(subscriber.messages.count) events")
        let events = subscriber.messages.map { $0.payload.contains(#""event":"enter""#) ? "enter" : "exit" }
        #expect(events.filter { $0 == "enter" }.count == beacons)
        #expect(events.filter { $0 == "exit" }.count == beacons)
        #expect(Set(subscriber.messages.map(\.topic)).count == beacons)
    }
}
