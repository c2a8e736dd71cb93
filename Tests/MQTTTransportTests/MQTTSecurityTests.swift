import BeaconCore
import BeaconWire
import CLI
import Foundation
import Runtime
import Settings
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import MQTTTransport
@testable import Platform

/// TLS (with an openssl-made CA) and password authentication against a real mosquitto.
@Suite(.serialized) struct MQTTSecurityTests {
    static func certificates() throws -> (TestCertificates, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (try TestCertificates(in: directory), directory)
    }

    @Test func tlsWithTheRightCAConnectsAndTheWrongCAIsRefusedClearly() throws {
        let (pki, directory) = try Self.certificates()
        defer { try? FileManager.default.removeItem(at: directory) }
        let broker = try MosquittoBroker(
            tls: .init(caFile: pki.caFile, certFile: pki.serverCert, keyFile: pki.serverKey))

        let (good, _) = ClientEvents.client(port: broker.port) {
            $0.tls.enabled = true
            $0.tls.caFile = pki.caFile
        }
        good.start()
        defer { good.stop() }
        #expect(good.waitForFirstAttempt(timeout: .seconds(10)))
        #expect(good.options.endpoint.hasPrefix("mqtts://"))

        let (bad, events) = ClientEvents.client(port: broker.port) {
            $0.tls.enabled = true
            $0.tls.caFile = pki.otherCAFile
        }
        bad.start()
        defer { bad.stop() }
        #expect(!bad.waitForFirstAttempt(timeout: .seconds(10)))
        let reason = try #require(events.failures.first)
        #expect(reason.contains("TLS") && reason.contains("certificate verify failed"), "\(reason)")
    }

    @Test func mutualTLSNeedsTheClientCertificate() throws {
        let (pki, directory) = try Self.certificates()
        defer { try? FileManager.default.removeItem(at: directory) }
        let broker = try MosquittoBroker(
            tls: .init(
                caFile: pki.caFile, certFile: pki.serverCert, keyFile: pki.serverKey, requireClientCertificate: true))

        let (withCert, _) = ClientEvents.client(port: broker.port) {
            $0.tls = .init()
            $0.tls.enabled = true
            $0.tls.caFile = pki.caFile
            $0.tls.certFile = pki.clientCert
            $0.tls.keyFile = pki.clientKey
            $0.tls.version = "tlsv1.2"
        }
        withCert.start()
        defer { withCert.stop() }
        #expect(withCert.waitForFirstAttempt(timeout: .seconds(10)))

        let (withoutCert, events) = ClientEvents.client(port: broker.port) {
            $0.tls.enabled = true
            $0.tls.caFile = pki.caFile
        }
        withoutCert.start()
        defer { withoutCert.stop() }
        #expect(!withoutCert.waitForFirstAttempt(timeout: .seconds(10)))
        #expect(!events.failures.isEmpty)
    }

    @Test func theRightPasswordConnectsAndAWrongOneIsRefusedWithBackoff() throws {
        let broker = try MosquittoBroker(users: ["gateway": "s3cret pass"])
        let (good, _) = ClientEvents.client(port: broker.port) {
            $0.username = "gateway"
            $0.password = "s3cret pass"
        }
        good.start()
        defer { good.stop() }
        #expect(good.waitForFirstAttempt(timeout: .seconds(10)))

        let lines = LogLines()
        let events = ClientEvents()
        var options = MQTTConnectionOptions(
            host: "127.0.0.1", port: broker.port, clientID: "gw-wrong", statusTopic: "beacons/gateways/gw-wrong/status",
            username: "gateway", password: "wrong", reconnectMin: .milliseconds(300), reconnectMax: .seconds(2))
        options.keepalive = .seconds(10)
        let bad = MosquittoClient(options: options, logger: Logger(level: .debug, sink: lines.append)) {
            events.record($0)
        }
        bad.start()
        defer { bad.stop() }
        #expect(!bad.waitForFirstAttempt(timeout: .seconds(10)))
        _ = waitUntil(timeout: 2) { false }
        let failures = events.failures
        #expect(failures.first?.contains("not authorised") == true, "\(failures)")
        #expect(failures.count >= 2 && failures.count <= 6, "\(failures.count) attempts in ~2 s")
        // Logged once at warning with the reason, then only at debug; never the password.
        #expect(lines.all.filter { $0.hasPrefix("warning: cannot connect") }.count == 1)
        #expect(!lines.all.joined().contains("wrong\n") && !lines.all.joined().contains("=wrong"))
    }

    @Test func mqtt5ReportsItsOwnReasonForAWrongPassword() throws {
        let broker = try MosquittoBroker(users: ["gateway": "right"])
        func client(password: String) -> (MosquittoClient, ClientEvents) {
            ClientEvents.client(port: broker.port) {
                $0.protocolVersion = .v5
                $0.username = "gateway"
                $0.password = password
            }
        }
        let (good, _) = client(password: "right")
        good.start()
        defer { good.stop() }
        #expect(good.waitForFirstAttempt(timeout: .seconds(10)))
        let (bad, events) = client(password: "wrong")
        bad.start()
        defer { bad.stop() }
        #expect(!bad.waitForFirstAttempt(timeout: .seconds(10)))
        // MQTT 5 CONNACK reason 0x87 (§3.2.2.2), as mosquitto_reason_string words it.
        #expect(events.failures.first?.contains("Not authorized") == true, "\(events.failures)")
    }

    @Test func insecureTLSIsWarnedAboutAtStart() throws {
        let lines = LogLines()
        var options = MQTTConnectionOptions(
            host: "127.0.0.1", port: try MosquittoBroker.freePort(), clientID: "gw-insecure",
            statusTopic: "beacons/gateways/gw-insecure/status")
        options.tls.enabled = true
        options.tls.insecure = true
        let client = MosquittoClient(
            options: options, logger: Logger(level: .info, sink: lines.append), onEvent: { _ in })
        client.start()
        client.stop(timeout: .seconds(1))
        #expect(lines.all.first?.hasPrefix("warning: mqtt.tls.insecure is set") == true, "\(lines.all)")
    }

    @Test func optionsReadThePasswordFileAndRefuseHalfConfiguredCredentials() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("password").path
        try "hunter2\n".write(toFile: file, atomically: true, encoding: .utf8)
        var configuration = Configuration()
        configuration.gateway.id = "gw7"
        configuration.mqtt.credentials.username = "gateway"
        configuration.mqtt.credentials.passwordFile = file
        let options = try MQTTConnectionOptions(configuration: configuration)
        #expect(options.password == "hunter2")
        #expect(options.clientID == "gw7")
        #expect(options.statusTopic == "beacons/gateways/gw7/status")
        configuration.mqtt.credentials.passwordFile = directory.appendingPathComponent("missing").path
        #expect(throws: MQTTConnectionOptions.Problem.self) { try MQTTConnectionOptions(configuration: configuration) }
        configuration.mqtt.credentials.passwordFile = file
        configuration.mqtt.credentials.username = nil
        #expect(throws: MQTTConnectionOptions.Problem("mqtt.password_file needs mqtt.username")) {
            try MQTTConnectionOptions(configuration: configuration)
        }
        configuration.mqtt.credentials.passwordFile = nil
        configuration.mqtt.tls.enabled = true
        configuration.mqtt.tls.certFile = "/etc/gateway.crt"
        #expect(throws: MQTTConnectionOptions.Problem("mqtt.tls: cert_file and key_file go together")) {
            try MQTTConnectionOptions(configuration: configuration)
        }
    }
}
