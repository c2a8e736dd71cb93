import Foundation
import Testing
import Vocabulary

@testable import IntegrationSupport
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
        while BrokerSocket.unreadBytes(port: broker.port) < expected * Self.packetBytes, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.3)
        let bytes = BrokerSocket.unreadBytes(port: broker.port)
        #expect(bytes % Self.packetBytes == 0, "\(bytes) bytes")
        return bytes / Self.packetBytes
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
