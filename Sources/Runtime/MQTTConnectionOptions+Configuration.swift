import BeaconCore
import MQTTTransport
import MessageContract
import Platform
import Settings
import Vocabulary

extension MQTTConnectionOptions {
    /// A configuration problem found while resolving the options (exit 78).
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// The options of `configuration`'s `mqtt` section: the client id defaults to the gateway id,
    /// the password is read from `password_file`, and the availability topic is the topic tree's
    /// `<base>/gateways/<gw>/status`.
    package init(configuration c: Configuration) throws(Problem) {
        var password: String?
        if let file = c.mqtt.credentials.passwordFile {
            guard let data = try? FileSystem.contents(file), let text = String(validating: data, as: UTF8.self)
            else { throw Problem("mqtt.password_file: cannot read '\(file)'") }
            password = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        if c.mqtt.credentials.passwordFile != nil, c.mqtt.credentials.username == nil {
            throw Problem("mqtt.password_file needs mqtt.username")
        }
        let tls = c.mqtt.tls
        if (tls.certFile == nil) != (tls.keyFile == nil) {
            throw Problem("mqtt.tls: cert_file and key_file go together")
        }
        self.init(
            host: c.mqtt.host, port: c.mqtt.port, clientID: c.mqtt.clientID ?? c.gateway.id,
            statusTopic: TopicTree(c).gatewayStatus, keepalive: c.mqtt.keepalive,
            protocolVersion: c.mqtt.protocolVersion == .v5 ? .v5 : .v311, cleanSession: c.mqtt.cleanSession,
            username: c.mqtt.credentials.username, password: password,
            tls: TLS(
                enabled: tls.enabled, caFile: tls.caFile, caPath: tls.caPath, certFile: tls.certFile,
                keyFile: tls.keyFile, version: tls.version, insecure: tls.insecure),
            statusQoS: max(c.mqtt.qos, 1), reconnectMin: c.mqtt.reconnect.minimum,
            reconnectMax: c.mqtt.reconnect.maximum)
        failover = c.mqtt.failover.map { Broker(host: $0.host, port: $0.port ?? c.mqtt.port) }
    }
}
