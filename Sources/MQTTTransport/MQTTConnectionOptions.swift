import Vocabulary

/// Everything a `MosquittoClient` needs to open a session: where, who, how, and the topic its
/// availability goes to. Resolved from the configuration above the transport (Runtime's
/// `MQTTConnectionOptions(configuration:)`), which names the topics and reads the password file.
package struct MQTTConnectionOptions: Sendable, Equatable {
    package enum ProtocolVersion: String, Sendable, Equatable {
        case v311 = "3.1.1"
        case v5 = "5"
    }

    /// TLS as libmosquitto takes it (`mosquitto_tls_set`, `mosquitto_tls_opts_set`).
    package struct TLS: Sendable, Equatable {
        package var enabled: Bool
        package var caFile: String?
        package var caPath: String?
        package var certFile: String?
        package var keyFile: String?
        /// `tlsv1.2` or `tlsv1.3`; nil lets OpenSSL choose.
        package var version: String?
        /// Skip the server host-name check (logged as a warning at start).
        package var insecure: Bool

        package init(
            enabled: Bool = false, caFile: String? = nil, caPath: String? = nil, certFile: String? = nil,
            keyFile: String? = nil, version: String? = nil, insecure: Bool = false
        ) {
            self.enabled = enabled
            self.caFile = caFile
            self.caPath = caPath
            self.certFile = certFile
            self.keyFile = keyFile
            self.version = version
            self.insecure = insecure
        }
    }

    /// A broker's address.
    package struct Broker: Sendable, Equatable {
        package var host: String
        package var port: Int
        package init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    package var host: String
    package var port: Int
    /// Brokers tried after `host` when it cannot be reached or its session ends (`mqtt.failover`).
    package var failover: [Broker] = []
    package var clientID: String
    package var keepalive: TimeSpan
    package var protocolVersion: ProtocolVersion
    package var cleanSession: Bool
    package var username: String?
    /// Never logged, never on the command line.
    package var password: String?
    package var tls: TLS
    /// Retained `online` after every connect; the Last Will and a clean stop leave `offline`.
    package var statusTopic: String
    /// QoS of the status messages (and the will).
    package var statusQoS: Int
    /// Set the will and publish `online`/`offline` (off for a short-lived tool such as `status`).
    package var announcesAvailability = true
    /// How reconnects back off, from `reconnect_min` to `reconnect_max` (a session starts from a copy).
    package var reconnect: Backoff
    /// QoS ≥ 1 messages libmosquitto keeps unacknowledged on the wire at once (MOSQ_OPT_SEND_MAXIMUM;
    /// an MQTT 5 broker's smaller Receive Maximum wins). nil: the library's 20, and what the
    /// `DeliveryPolicy` lets out beyond that waits in libmosquitto's own queue.
    package var inFlightWindow: Int?

    package init(
        host: String, port: Int, clientID: String, statusTopic: String, keepalive: TimeSpan = .seconds(15),
        protocolVersion: ProtocolVersion = .v311, cleanSession: Bool = false, username: String? = nil,
        password: String? = nil, tls: TLS = TLS(), statusQoS: Int = 1,
        reconnectMin: TimeSpan = .seconds(1), reconnectMax: TimeSpan = .seconds(60)
    ) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.statusTopic = statusTopic
        self.keepalive = keepalive
        self.protocolVersion = protocolVersion
        self.cleanSession = cleanSession
        self.username = username
        self.password = password
        self.tls = tls
        self.statusQoS = statusQoS
        reconnect = Backoff(minimum: reconnectMin, maximum: reconnectMax)
    }

    /// `host` and then the failover brokers, in the order they are tried.
    package var brokers: [Broker] { [Broker(host: host, port: port)] + failover }

    /// How the first broker is addressed in log lines (no credentials).
    package var endpoint: String { endpoint(of: Broker(host: host, port: port)) }

    /// How `broker` is addressed in log lines.
    package func endpoint(of broker: Broker) -> String {
        "\(tls.enabled ? "mqtts" : "mqtt")://\(broker.host):\(broker.port)"
    }
}
