import AgentCore
import BeaconWire
import CLI
import Foundation
import Glibc
import Synchronization
import Testing
import Vocabulary

@testable import CaptureTransport
@testable import IntegrationSupport

/// `run --replay` streams its capture and hands packets over in batches.
@Suite struct ReplaySourceTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/captures")

    /// Runs `source` to its end on a thread; the events in order.
    static func events(of source: ReplaySource) throws -> [SourceEvent] {
        let events = Mutex<[SourceEvent]>([])
        let done = Mutex(false)
        Thread {
            try? source.run { event in events.withLock { $0.append(event) } }
            done.withLock { $0 = true }
        }.start()
        #expect(waitUntil(timeout: 20) { done.withLock { $0 } })
        return events.withLock { $0 }
    }

    @Test(arguments: [
        "wangdalian-btsnooper_ext-adv_btsnoop_hci.log", "csacca-horizon74_legacy-scanrsp-ibeacon.pcapng",
        "goodystone-estimote-eddystone_hcidump-raw.txt",
    ])
    func atMaxSpeedEveryPacketIsHandedOverInOrderInBatches(name: String) throws {
        let path = Self.fixtures.appendingPathComponent(name).path
        let (expected, error) = CaptureReader.readAll(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(error == nil)
        let events = try Self.events(of: try ReplaySource(path: path, speed: nil))
        #expect(events.flatMap(\.carriedPackets) == expected)
        guard case .end = events.last else {
            Issue.record("no end")
            return
        }
        let batches = events.filter { if case .packets = $0 { true } else { false } }
        #expect(batches.count < expected.count)
        #expect(batches.allSatisfy { $0.carriedPackets.count <= ReplaySource.batchLimit })
    }

    @Test func atCaptureSpeedPacketsDueTogetherComeInOneBatch() throws {
        // 40 packets 1 ms apart, then one 300 ms later: at most one hand-over per 10 ms.
        var file = BtsnoopWriter.fileHeader()
        var expected: [CapturedPacket] = []
        let start = Timestamp.seconds(1_700_000_000)
        for i in 0...40 {
            let at = start + (i < 40 ? .milliseconds(Int64(i)) : .milliseconds(340))
            let packet = CapturedPacket(timestamp: at, bytes: [0x04, 0x0E, 0x01, UInt8(i)])
            expected.append(packet)
            file += BtsnoopWriter.record(packet)
        }
        let path = NSTemporaryDirectory() + "replay-batches-\(getpid()).log"
        try Data(file).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let events = try Self.events(of: try ReplaySource(path: path, speed: 1))
        let batches = events.map(\.carriedPackets).filter { !$0.isEmpty }
        #expect(batches.flatMap { $0 } == expected)
        // 40 ms of packets with a 10 ms floor between hand-overs: a handful of batches, not 40.
        #expect(batches.count <= 8, "\(batches.map(\.count))")
        #expect(batches.last?.count == 1)
    }

    /// `scanner.read_interval` on a pipe (the bench's stand-in for a live adapter): after a read that
    /// drained it, the next waits the interval, so packets written 20 ms apart go over together.
    @Test func aHeldPipeIsReadOnceAnInterval() throws {
        let path = NSTemporaryDirectory() + "replay-held-\(getpid())"
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let packets = (0..<10).map {
            CapturedPacket(
                timestamp: .seconds(1_700_000_000) + .milliseconds(Int64($0) * 20),
                bytes: [0x04, 0x0E, 0x01, UInt8($0)])
        }
        Thread {
            let fd = open(path, O_WRONLY)
            func write(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            write(BtsnoopWriter.fileHeader())
            for packet in packets {
                write(BtsnoopWriter.record(packet))
                Thread.sleep(forTimeInterval: 0.02)
            }
            close(fd)
        }.start()
        let events = try Self.events(
            of: try ReplaySource(path: path, speed: nil, readPacing: .fixed(.milliseconds(250))))
        let batches = events.map(\.carriedPackets).filter { !$0.isEmpty }
        #expect(batches.flatMap { $0 } == packets)
        // 200 ms of writes: the first read, then one or two held ones; read as written, about ten.
        #expect(batches.count <= 3, "\(batches.map(\.count))")
    }

    /// The default pacing on a pipe: packets written 40 ms apart are each read as they come; a
    /// thousand a second are, once the rate is seen, held and read a few times a second.
    @Test func anAdaptivePipeIsReadAtOnceWhileQuietAndInBatchesWhileBusy() throws {
        let path = NSTemporaryDirectory() + "replay-adaptive-\(getpid())"
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let quiet = (0..<8).map { (packet: $0, gap: 0.04) }
        let busy = (8..<1_008).map { (packet: $0, gap: 0.001) }
        let packets = (quiet + busy).map {
            CapturedPacket(
                timestamp: .seconds(1_700_000_000) + .milliseconds(Int64($0.packet)),
                bytes: [0x04, 0x0E, 0x02, UInt8($0.packet % 256), UInt8($0.packet / 256)])
        }
        Thread {
            let fd = open(path, O_WRONLY)
            func write(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            write(BtsnoopWriter.fileHeader())
            for (packet, step) in zip(packets, quiet + busy) {
                write(BtsnoopWriter.record(packet))
                Thread.sleep(forTimeInterval: step.gap)
            }
            close(fd)
        }.start()
        let events = try Self.events(of: try ReplaySource(path: path, speed: nil))
        let batches = events.map(\.carriedPackets).filter { !$0.isEmpty }
        #expect(batches.flatMap { $0 } == packets)
        // Quiet: one hand-over a packet (a loaded machine may let two meet).
        let quietBatches = batches.prefix { $0.allSatisfy { $0.bytes[3] < 8 && $0.bytes[4] == 0 } }
        #expect(quietBatches.count >= 6, "\(batches.map(\.count))")
        // Busy, over a second or more of writes: a few dozen hand-overs at most, not a thousand.
        #expect(batches.count - quietBatches.count < 100, "\(batches.map(\.count))")
    }

    @Test func aFIFOIsFollowedAndEachPacketHandedOverBeforeTheWriterIsDone() throws {
        let path = NSTemporaryDirectory() + "replay-fifo-\(getpid())"
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let packets = (0..<3).map {
            CapturedPacket(
                timestamp: .seconds(1_700_000_000) + .seconds(Int64($0)), bytes: [0x04, 0x0E, 0x01, UInt8($0)])
        }
        let handedOver = Mutex<[CapturedPacket]>([])
        let writerDone = Mutex(false)
        Thread {
            let fd = open(path, O_WRONLY)
            func write(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            write(BtsnoopWriter.fileHeader() + BtsnoopWriter.record(packets[0]))
            // The writer holds the FIFO open until the reader has the packet so far.
            for packet in packets.dropFirst() {
                _ = waitUntil(timeout: 10) { handedOver.withLock { $0.count } == Int(packet.bytes[3]) }
                write(BtsnoopWriter.record(packet))
            }
            close(fd)
            writerDone.withLock { $0 = true }
        }.start()
        let source = try ReplaySource(path: path, speed: nil)
        let ended = Mutex(false)
        Thread {
            try? source.run { event in
                if case .end = event { ended.withLock { $0 = true } }
                handedOver.withLock { $0 += event.carriedPackets }
            }
        }.start()
        #expect(waitUntil(timeout: 10) { ended.withLock { $0 } })
        #expect(writerDone.withLock { $0 })
        #expect(handedOver.withLock { $0 } == packets)
    }
}
