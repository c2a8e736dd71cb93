import BeaconCore
import BeaconWire
import CLI
import Foundation
import Synchronization
import Vocabulary

@testable import MQTTTransport
@testable import Platform

/// A subscriber for broker tests: a second `MosquittoClient` that records every message it sees.
final class TestSubscriber: Sendable {
    struct Received: Sendable, Equatable {
        var topic: String
        var payload: String
        var qos: Int
        var retained: Bool
    }

    private final class Store: Sendable {
        let received = Mutex<[Received]>([])
        /// When each of `received` arrived (seconds since the epoch), in the same order.
        let arrivals = Mutex<[Double]>([])
        let subscribed = Mutex<Bool>(false)
        let client = Mutex<MosquittoClient?>(nil)
    }

    let client: MosquittoClient
    private let store = Store()

    /// Connects to `port` and subscribes to `pattern` at QoS 1. A persistent session (`clientID`
    /// given, clean session off) keeps queued messages across a broker restart with persistence.
    /// `retainAsPublished` subscribes with MQTT 5 at QoS 2, so every message arrives with the QoS
    /// and retain flag it was published with.
    init(
        port: Int, pattern: String = "#", clientID: String? = nil, retainAsPublished: Bool = false,
        configure: (inout MQTTConnectionOptions) -> Void = { _ in }
    ) throws {
        var o = MQTTConnectionOptions(
            host: "127.0.0.1", port: port, clientID: clientID ?? "sub-\(UUID().uuidString.prefix(8))",
            statusTopic: "test/subscribers/\(UUID().uuidString.prefix(8))/status", cleanSession: clientID == nil,
            reconnectMin: .milliseconds(100), reconnectMax: .milliseconds(300))
        if retainAsPublished { o.protocolVersion = .v5 }
        configure(&o)
        let store = self.store
        let client = MosquittoClient(options: o, logger: Logger(level: .critical) { _ in }) { event in
            switch event {
            case .connected:
                _ = store.client.withLock { $0 }?.subscribe(
                    pattern, qos: retainAsPublished ? 2 : 1, retainAsPublished: retainAsPublished)
            case .subscribed:
                store.subscribed.withLock { $0 = true }
            case .message(let topic, let payload, let qos, let retained):
                let message = Received(
                    topic: topic, payload: String(decoding: payload, as: UTF8.self), qos: qos, retained: retained)
                let arrived = Date().timeIntervalSince1970
                store.received.withLock {
                    $0.append(message)
                    store.arrivals.withLock { $0.append(arrived) }
                }
            default: break
            }
        }
        self.client = client
        store.client.withLock { $0 = client }
        client.start()
        guard waitUntil(timeout: 10, { store.subscribed.withLock { $0 } }) else {
            throw MosquittoBroker.BrokerError("subscriber did not subscribe: \(client.lastFailure ?? "?")")
        }
    }

    var messages: [Received] { store.received.withLock { $0 } }

    func messages(on topic: String) -> [Received] { messages.filter { $0.topic == topic } }

    /// Every message with when it arrived (seconds since the epoch, this host's clock).
    var timedMessages: [(message: Received, arrived: Double)] {
        store.received.withLock { received in Array(zip(received, store.arrivals.withLock { $0 })) }
    }

    @discardableResult
    func waitFor(timeout: Double = 10, _ condition: ([Received]) -> Bool) -> Bool {
        waitUntil(timeout: timeout) { condition(self.messages) }
    }

    func stop() {
        client.stop(timeout: .seconds(1))
        store.client.withLock { $0 = nil }
    }
}
