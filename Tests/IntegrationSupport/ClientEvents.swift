import BeaconCore
import BeaconWire
import CLI
import Foundation
import Synchronization
import Vocabulary

@testable import MQTTTransport
@testable import Platform

/// Records a `MosquittoClient`'s events for assertions.
final class ClientEvents: Sendable {
    private let events = Mutex<[MosquittoClient.Event]>([])

    func record(_ event: MosquittoClient.Event) { events.withLock { $0.append(event) } }

    var all: [MosquittoClient.Event] { events.withLock { $0 } }

    var failures: [String] {
        all.compactMap { if case .connectFailed(let reason) = $0 { reason } else { nil } }
    }

    var connections: Int {
        all.count { if case .connected = $0 { true } else { false } }
    }

    /// A client for `port` whose events land here; not started.
    static func client(
        port: Int, clientID: String = "gw-\(UUID().uuidString.prefix(8))",
        configure: (inout MQTTConnectionOptions) -> Void = { _ in }
    ) -> (MosquittoClient, ClientEvents) {
        var options = MQTTConnectionOptions(
            host: "127.0.0.1", port: port, clientID: clientID, statusTopic: "beacons/gateways/\(clientID)/status",
            reconnectMin: .milliseconds(200), reconnectMax: .seconds(1))
        configure(&options)
        let events = ClientEvents()
        let client = MosquittoClient(options: options, logger: Logger(level: .critical) { _ in }) { events.record($0) }
        return (client, events)
    }
}
