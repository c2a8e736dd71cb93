import BeaconCore
import BeaconWire
import Glibc
import MessageContract
import Platform
import Vocabulary

/// Everything a `MosquittoClient` needs to open a session, resolved from the `mqtt` configuration:
/// the client id defaults to the gateway id, the password is read from `password_file`, and the
/// availability topic is `<base>/gateways/<gw>/status`.
package struct MQTTConnectionOptions: Sendable, Equatable {
    package var host: String
    package var port: Int
    package var clientID: String
    package var keepalive: TimeSpan
    package var protocolVersion: MQTTSettings.ProtocolVersion
    package var cleanSession: Bool
    package var username: String?
    /// Read from `password_file`; never logged, never on the command line.
    package var password: String?
    package var tls: TLSSettings
    /// Retained `online` after every connect; the Last Will and a clean stop leave `offline`.
    package var statusTopic: String
    /// QoS of the status messages (and the will).
    package var statusQoS: Int
    /// Set the will and publish `online`/`offline` (off for a short-lived tool such as `status`).
    package var announcesAvailability = true
    package var reconnectMin: TimeSpan
    package var reconnectMax: TimeSpan
    /// QoS ≥ 1 messages libmosquitto keeps unacknowledged on the wire at once (MOSQ_OPT_SEND_MAXIMUM;
    /// an MQTT 5 broker's smaller Receive Maximum wins). nil: the library's 20, and what the
    /// `DeliveryPolicy` lets out beyond that waits in libmosquitto's own queue.
    package var inFlightWindow: Int?

    package init(
        host: String, port: Int, clientID: String, statusTopic: String, keepalive: TimeSpan = .seconds(30),
        protocolVersion: MQTTSettings.ProtocolVersion = .v311, cleanSession: Bool = false, username: String? = nil,
        password: String? = nil, tls: TLSSettings = TLSSettings(), statusQoS: Int = 1,
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
        self.reconnectMin = reconnectMin
        self.reconnectMax = reconnectMax
    }

    /// A configuration problem found while resolving the options (exit 78).
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// Resolves the options of `configuration`, reading the password file.
    package init(configuration c: Configuration) throws(Problem) {
        var password: String?
        if let file = c.mqtt.passwordFile {
            guard let data = try? FileSystem.contents(file), let text = String(validating: data, as: UTF8.self)
            else { throw Problem("mqtt.password_file: cannot read '\(file)'") }
            password = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        if c.mqtt.passwordFile != nil, c.mqtt.username == nil {
            throw Problem("mqtt.password_file needs mqtt.username")
        }
        let tls = c.mqtt.tls
        if (tls.certFile == nil) != (tls.keyFile == nil) {
            throw Problem("mqtt.tls: cert_file and key_file go together")
        }
        self.init(
            host: c.mqtt.host, port: c.mqtt.port, clientID: c.mqtt.clientID ?? c.gateway.id,
            statusTopic: TopicTree(c).gatewayStatus, keepalive: c.mqtt.keepalive,
            protocolVersion: c.mqtt.protocolVersion, cleanSession: c.mqtt.cleanSession, username: c.mqtt.username,
            password: password, tls: tls, statusQoS: max(c.mqtt.qos, 1), reconnectMin: c.mqtt.reconnectMin,
            reconnectMax: c.mqtt.reconnectMax)
    }

    /// How the broker is addressed in log lines (no credentials).
    package var endpoint: String { "\(tls.enabled ? "mqtts" : "mqtt")://\(host):\(port)" }
}
