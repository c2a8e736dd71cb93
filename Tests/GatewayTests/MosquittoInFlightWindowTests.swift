import Foundation
import Testing
import Vocabulary

@testable import MQTTTransport

/// `MQTTConnectionOptions.inFlightWindow` is what libmosquitto lets onto the wire unacknowledged
/// (MOSQ_OPT_SEND_MAXIMUM; the library's own default is 20): against a real mosquitto stopped with
/// SIGSTOP, the bytes the client wrote and the broker has not read (both ends' TCP queues in
/// /proc/net/tcp) are exactly that many QoS 1 PUBLISH packets; the rest wait in the library.
@Suite(.serialized) struct MosquittoInFlightWindowTests {
    /// PUBLISH with topic "w/x", a packet id and 100 payload bytes: 2 + (2 + 3) + 2 + 100.
    static let packetBytes = 109

    /// The PUBLISH packets on the wire once the client wrote what it may: waited for until there are
    /// `expected` (10 s at most, on a loaded machine), then 0.3 s more in case more come.
    static func packetsOnTheWire(window: Int?, expected: Int) throws -> Int {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let (client, _) = ClientEvents.client(port: broker.port) {
            $0.announcesAvailability = false
            $0.inFlightWindow = window
        }
        client.start()
        defer { client.stop(timeout: .milliseconds(500)) }
        #expect(client.waitForFirstAttempt(timeout: .seconds(10)))
        guard let pid = broker.pid else { return -1 }
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        for _ in 0..<200 {
            _ = client.publish(topic: "w/x", payload: Array(repeating: 0x61, count: 100), qos: 1, retain: false)
        }
        let deadline = Date().addingTimeInterval(10)
        while Self.unreadBytes(port: broker.port) < expected * Self.packetBytes, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.3)
        let bytes = Self.unreadBytes(port: broker.port)
        #expect(bytes % Self.packetBytes == 0, "\(bytes) bytes")
        return bytes / Self.packetBytes
    }

    /// Bytes written to the broker's port and not read by it: the client socket's send queue plus
    /// the broker socket's receive queue (proc(5), /proc/net/tcp: hex ports, tx_queue:rx_queue).
    static func unreadBytes(port: Int) -> Int {
        let text = Self.procFile("/proc/net/tcp")
        let hexPort = String(format: ":%04X", port)
        var total = 0
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count > 4, f[3] == "01" else { continue }  // ESTABLISHED
            let queues = f[4].split(separator: ":").compactMap { Int($0, radix: 16) }
            guard queues.count == 2 else { continue }
            if f[2].hasSuffix(hexPort) { total += queues[0] }  // the client's end: what it sent
            if f[1].hasSuffix(hexPort) { total += queues[1] }  // the broker's end: what it has not read
        }
        return total
    }

    /// A procfs file read to its end: its size reads as 0, and a busy machine's socket table is
    /// longer than one read.
    static func procFile(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theWindowIsWhatGoesOutUnacknowledged() throws {
        let packets = try Self.packetsOnTheWire(window: 100, expected: 100)
        #expect(packets == 100, "\(packets) packets")
    }

    @Test func withoutOneLibmosquittoSendsTwenty() throws {
        let packets = try Self.packetsOnTheWire(window: nil, expected: 20)
        #expect(packets == 20, "\(packets) packets")
    }
}
