import AgentCore
import Foundation
import Platform
import Testing

@testable import IntegrationSupport
@testable import MQTTTransport

/// The gateway's session puts its delivery policy's whole in-flight window (64) on the wire, not
/// libmosquitto's default 20: against a real mosquitto stopped with SIGSTOP, a burst of 200 QoS 1
/// events leaves exactly 64 of them written and unread (plus the QoS 0 proximity message, which
/// no window holds back).
@Suite(.serialized) struct GatewayInFlightWindowTests {
    @Test func theDeliveryPolicysWindowIsWhatGoesOutUnacknowledged() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let pid = try #require(broker.pid)
        // Packet 1 brings 200 events on beacons/burst/<i>/event; it comes after the broker is stopped.
        let harness = try AgentHarness(
            configuration: AgentHarness.configuration(port: broker.port),
            source: ScriptedSource(count: 1, interval: 0, endsAfterLast: false, firstAfter: 3), burst: 200)
        #expect(waitUntil(timeout: 10) { harness.lines.all.contains { $0.contains("connected to broker") } })
        Thread.sleep(forTimeInterval: 0.5)  // `online` and the subscriptions acknowledged
        kill(pid, SIGSTOP)
        var stopped = true
        defer { if stopped { kill(pid, SIGCONT) } }
        // 64 events: PUBLISH, topic beacons/burst/<i>/event, a packet id and {"event":"exit"}: 42
        // bytes and i's digits (i = 0…63 first: 10 × 43 + 54 × 44); the proximity message 35 bytes.
        let expected = 10 * 43 + 54 * 44 + 35
        let deadline = Date().addingTimeInterval(15)
        while BrokerSocket.unreadBytes(port: broker.port) < expected, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.3)
        let bytes = BrokerSocket.unreadBytes(port: broker.port)
        // 20 in flight (libmosquitto's default) would be under 1,000 bytes.
        #expect(bytes == expected, "\(bytes) bytes unread, \(expected) for 64 events")
        kill(pid, SIGCONT)
        stopped = false
        harness.signal(SIGTERM)
        #expect(harness.wait(timeout: 15)?.0 == .success)
    }
}
