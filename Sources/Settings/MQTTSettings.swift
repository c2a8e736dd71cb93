import Vocabulary

/// `mqtt:`: the broker, the session with it, and what the agent holds while it is away.
package struct MQTTSettings: Sendable, Equatable {
    package enum ProtocolVersion: String, Sendable, Equatable, CaseIterable {
        case v311 = "3.1.1"
        case v5 = "5"
    }
    /// A failover broker: its host, and its port (nil: `port`).
    package struct Failover: Sendable, Equatable {
        package var host: String
        package var port: Int?
        package init(host: String, port: Int? = nil) {
            self.host = host
            self.port = port
        }
    }

    package var host: String = "localhost"
    package var port: Int = 1883
    /// Brokers tried, in order, after `host` (`mqtt.failover`).
    package var failover: [Failover] = []
    package var baseTopic: String = "beacons"
    /// Defaults to the gateway id when nil.
    package var clientID: String? = nil
    package var credentials = MQTTCredentials()
    package var tls = TLSSettings()
    /// QoS for enter/exit events and retained state (proximity and ranging always use 0).
    package var qos: Int = 1
    /// The broker sends the Last Will one and a half keepalives after the client falls silent (a
    /// power cut, a lost network): 22.5 s, within which a locator still counts a dead gateway's
    /// readings. ESPresense nodes keep alive as often (PubSubClient's 15 s).
    package var keepalive: TimeSpan = .seconds(15)
    package var protocolVersion: ProtocolVersion = .v311
    package var cleanSession: Bool = false
    package var statsInterval: TimeSpan = .seconds(60)
    /// Most messages held while the broker is unreachable.
    package var outboxLimit: Int = 10_000
    /// Exit 69 when the broker cannot be reached at start, instead of retrying in the background.
    package var requireBrokerAtStart: Bool = false
    package var reconnect = ReconnectDelays()
    package init() {}
}
