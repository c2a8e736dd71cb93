import Foundation
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import MQTTTransport

/// On plain TCP a QoS 1 message is written by the thread that publishes it, not handed to the
/// network thread through libmosquitto's socketpair: against a real mosquitto stopped with SIGSTOP
/// (so no acknowledgement wakes the network thread either), 100 publishes spaced 2 ms apart are
/// written, and the network thread slept through them (its voluntary context switches in procfs;
/// handing each one over woke it about 100 times).
@Suite(.serialized) struct MosquittoDirectWriteTests {
    /// `voluntary_ctxt_switches` of thread `tid` of this process (proc(5)).
    static func wakeUps(_ tid: pid_t) -> Int? {
        let text = BrokerSocket.procFile("/proc/self/task/\(tid)/status")
        let line = text.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    @Test func aQoS1MessageIsWrittenByItsPublisherWithoutWakingTheNetworkThread() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let (client, _) = ClientEvents.client(port: broker.port) {
            $0.announcesAvailability = false
            $0.inFlightWindow = 200
        }
        client.start()
        defer { client.stop(timeout: .milliseconds(500)) }
        #expect(client.waitForFirstAttempt(timeout: .seconds(10)))
        Thread.sleep(forTimeInterval: 0.3)
        let pid = try #require(broker.pid)
        let tid = try #require(client.networkThread)
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        let before = try #require(Self.wakeUps(tid))
        for _ in 0..<100 {
            #expect(
                client.publish(topic: "w/x", payload: Array(repeating: 0x61, count: 100), qos: 1, retain: false)
                    != .notConnected)
            Thread.sleep(forTimeInterval: 0.002)
        }
        let after = try #require(Self.wakeUps(tid))
        // Counted once the broker's kernel has acknowledged them (until then a segment shows in both queues).
        Thread.sleep(forTimeInterval: 0.3)
        let bytes = BrokerSocket.unreadBytes(port: broker.port)
        #expect(bytes == 100 * MosquittoInFlightWindowTests.packetBytes, "\(bytes) bytes on the wire")
        // The network thread's own poll timeout (a second) may fall in the 0.2 s or so.
        #expect(after - before <= 3, "the network thread woke \(after - before) times")
    }
}
