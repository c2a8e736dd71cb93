import BeaconCore
import BeaconWire
import CLI
import Foundation
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import MQTTTransport

@Suite(.serialized) struct MQTTClientTests {
    @Test func publishesWithTheRequestedQoSAndRetainAsASubscriberSeesThem() throws {
        let broker = try MosquittoBroker()
        let (client, events) = ClientEvents.client(port: broker.port)
        client.start()
        defer { client.stop() }
        #expect(client.waitForFirstAttempt(timeout: .seconds(10)))
        // Retained before anyone subscribes: a new subscriber gets it with the retain flag.
        #expect(client.publish(topic: "t/state", payload: Array("inside".utf8), qos: 1, retain: true) != .notConnected)
        #expect(waitUntil(timeout: 5) { events.all.contains { if case .published = $0 { true } else { false } } })
        let subscriber = try TestSubscriber(port: broker.port, pattern: "t/#")
        defer { subscriber.stop() }
        #expect(subscriber.waitFor { $0.contains { $0.topic == "t/state" } })
        _ = client.publish(topic: "t/event", payload: Array("{\"event\":\"enter\"}".utf8), qos: 1, retain: false)
        _ = client.publish(topic: "t/proximity", payload: Array("{}".utf8), qos: 0, retain: false)
        #expect(subscriber.waitFor { $0.count >= 3 })
        #expect(
            subscriber.messages(on: "t/state") == [.init(topic: "t/state", payload: "inside", qos: 1, retained: true)])
        #expect(
            subscriber.messages(on: "t/event") == [
                .init(topic: "t/event", payload: "{\"event\":\"enter\"}", qos: 1, retained: false)
            ])
        #expect(
            subscriber.messages(on: "t/proximity") == [
                .init(topic: "t/proximity", payload: "{}", qos: 0, retained: false)
            ])
    }

    @Test func announcesOnlineAndACleanStopLeavesOffline() throws {
        let broker = try MosquittoBroker()
        let (client, _) = ClientEvents.client(port: broker.port, clientID: "gw-status")
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/gateways/+/status")
        defer { subscriber.stop() }
        client.start()
        #expect(subscriber.waitFor { $0.contains { $0.payload == "online" } })
        client.stop()
        #expect(!client.isConnected)
        #expect(subscriber.waitFor { $0.last?.payload == "offline" })
        // Retained: a late subscriber still learns the gateway is offline.
        let late = try TestSubscriber(port: broker.port, pattern: "beacons/gateways/gw-status/status")
        defer { late.stop() }
        #expect(
            late.waitFor {
                $0 == [.init(topic: "beacons/gateways/gw-status/status", payload: "offline", qos: 1, retained: true)]
            })
    }

    @Test func reconnectsAfterTheBrokerRestartsAndCountsIt() throws {
        let broker = try MosquittoBroker()
        let (client, events) = ClientEvents.client(port: broker.port)
        client.start()
        defer { client.stop() }
        #expect(client.waitForFirstAttempt(timeout: .seconds(10)))
        broker.stop()
        #expect(waitUntil(timeout: 5) { !client.isConnected })
        #expect(client.publish(topic: "t", payload: [1], qos: 1, retain: false) == .notConnected)
        try broker.start()
        #expect(waitUntil(timeout: 10) { client.isConnected })
        #expect(client.reconnects == 1)
        #expect(events.all.contains { if case .disconnected = $0 { true } else { false } })
        #expect(events.connections == 2)
    }

    @Test func anUnreachableBrokerIsRetriedWithBackoffNotInAHotLoop() throws {
        let port = try MosquittoBroker.freePort()
        let (client, events) = ClientEvents.client(port: port) {
            $0.reconnect = Backoff(minimum: .milliseconds(300), maximum: .seconds(2))
        }
        client.start()
        defer { client.stop() }
        #expect(!client.waitForFirstAttempt(timeout: .seconds(5)))
        let started = Date()
        _ = waitUntil(timeout: 2.0) { false }
        let attempts = events.failures.count
        // 300 ms doubling (with up to 50 % jitter) allows at most ~5 attempts in 2 s; a hot loop makes thousands.
        #expect(attempts >= 2 && attempts <= 6, "\(attempts) attempts in \(Date().timeIntervalSince(started)) s")
        #expect(events.failures.first?.contains("refused") == true)
    }
}
