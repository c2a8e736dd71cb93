import Foundation

/// A RabbitMQ cluster of private nodes on loopback (`RabbitBroker`s sharing an Erlang port mapper and
/// cookie, found by classic config peer discovery), each with its MQTT listener. Ready once a message
/// published on the first node reaches a subscriber of the last.
final class RabbitCluster: @unchecked Sendable {
    let nodes: [RabbitBroker]

    init(count: Int) throws {
        let ports = try (0..<count).map { _ in try MosquittoBroker.freePort() }
        let epmd = try MosquittoBroker.freePort()
        nodes = try ports.enumerated().map { i, port in
            try RabbitBroker(
                cluster: .init(port: port, peers: ports, epmdPort: epmd, startsEPMD: i == 0))
        }
        // One node at a time: classic config discovery joins a peer that is up (nodes that boot together
        // each find none and form clusters of their own when boots are slow), and a joining node's MQTT
        // plugin waits for its client id tracking to reach the running peers (minutes, two at once on a
        // busy machine).
        for node in nodes {
            try node.launch()
            try node.waitUntilListening(timeout: 240)
        }
        guard waitUntil(timeout: 60, { self.routes(from: ports[0], to: ports[count - 1]) }) else {
            throw MosquittoBroker.BrokerError("the RabbitMQ nodes formed no cluster: \(nodes[0].logText.suffix(2000))")
        }
    }

    /// Whether a message published on `from` reaches a subscriber on `to` within 3 s.
    func routes(from: Int, to: Int) -> Bool {
        let topic = "b2m-cluster/\(UUID().uuidString.prefix(8))"
        guard
            let sub = try? ChildProcess(
                "/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(to)", "-t", topic, "-C", "1", "-W", "3"])
        else { return false }
        Thread.sleep(forTimeInterval: 0.5)
        let pub = try? ChildProcess(
            "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(from)", "-t", topic, "-m", "1", "-q", "1"])
        _ = pub?.wait(timeout: 5)
        return sub.wait(timeout: 5) == 0
    }
}
