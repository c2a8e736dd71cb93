import Foundation
import Testing

@testable import IntegrationSupport

/// `check-config` makes every check `run` makes before it connects (`StartChecks`): each bad
/// configuration below is fed to both built binaries, and both must exit 78 with the same
/// `file:line:column: key: …` line (issue 34: check-config said OK to a file run refused).
@Suite struct StartChecksTests {
    /// A directory with a configuration file and the files it may name.
    final class Workspace {
        let directory: String
        init() throws {
            directory = NSTemporaryDirectory() + "b2m-start-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            chmod(directory, 0o755)
        }
        deinit { try? FileManager.default.removeItem(atPath: directory) }

        @discardableResult
        func file(_ name: String, _ text: String, mode: mode_t = 0o644) throws -> String {
            let path = directory + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, mode)
            return path
        }

        /// The configuration: a broker nobody listens on, then `yaml`.
        func config(_ yaml: String) throws -> String {
            try file("beacon2mqtt.yaml", "mqtt:\n  host: 127.0.0.1\n  port: 9\n" + yaml)
        }

        /// Exit status and combined output of the binary with `arguments`, or nil (killed) after 10 s.
        func run(_ arguments: [String]) throws -> (status: Int32?, output: String) {
            let log = directory + "/out-\(UUID().uuidString).log"
            let child = try ChildProcess(PackagePaths.binary, arguments, output: log)
            let status = child.wait(timeout: 10)
            child.signal(SIGKILL)
            child.wait(timeout: 5)
            return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        }
    }

    static let certificate = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
    static let key = "-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n"

    /// One bad configuration: its `mqtt:` lines after host and port (or further sections), and
    /// the message both commands must print, `{F}` standing for the configuration's path and
    /// `{D}` for the directory.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var yaml: String
        var message: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "password file missing", yaml: "  username: gw\n  password_file: {D}/absent\n",
            message: "{F}:5:18: mqtt.password_file: cannot read '{D}/absent': No such file or directory"),
        Case(
            name: "password without a user name", yaml: "  password_file: {D}/password\n",
            message: "{F}:4:18: mqtt.password_file: needs mqtt.username"),
        Case(
            name: "password file is a directory", yaml: "  username: gw\n  password_file: {D}\n",
            message: "{F}:5:18: mqtt.password_file: cannot read '{D}': Is a directory"),
        Case(
            name: "CA file missing", yaml: "  tls:\n    enabled: true\n    ca_file: {D}/absent.pem\n",
            message: "{F}:6:14: mqtt.tls.ca_file: cannot read '{D}/absent.pem': No such file or directory"),
        Case(
            name: "CA file not PEM", yaml: "  tls:\n    enabled: true\n    ca_file: {D}/password\n",
            message: "{F}:6:14: mqtt.tls.ca_file: '{D}/password' holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        ),
        Case(
            name: "CA path not a directory", yaml: "  tls:\n    enabled: true\n    ca_path: {D}/ca.pem\n",
            message: "{F}:6:14: mqtt.tls.ca_path: cannot read '{D}/ca.pem': Not a directory"),
        Case(
            name: "client certificate missing",
            yaml: "  tls:\n    enabled: true\n    cert_file: {D}/absent.pem\n    key_file: {D}/key.pem\n",
            message: "{F}:6:16: mqtt.tls.cert_file: cannot read '{D}/absent.pem': No such file or directory"),
        Case(
            name: "key not a private key",
            yaml: "  tls:\n    enabled: true\n    cert_file: {D}/ca.pem\n    key_file: {D}/ca.pem\n",
            message:
                "{F}:7:15: mqtt.tls.key_file: '{D}/ca.pem' holds no unencrypted PEM private key (-----BEGIN PRIVATE KEY-----)"
        ),
        Case(
            name: "key without certificate", yaml: "  tls:\n    enabled: true\n    key_file: {D}/key.pem\n",
            message:
                "{F}:6:15: mqtt.tls.cert_file: is required with mqtt.tls.key_file (a client certificate needs its key)"),
        Case(
            name: "IRK file missing", yaml: "devices:\n  - name: phone\n    irk_file: {D}/absent.irk\n",
            message: "{F}:6:15: devices[0].irk_file: cannot read '{D}/absent.irk': No such file or directory"),
        Case(
            name: "metrics.listen not an address", yaml: "metrics:\n  listen: localhost:9851\n",
            message: "{F}:5:11: metrics.listen: 'localhost' is not an IPv4 address"),
    ]

    @Test(arguments: cases)
    func runAndCheckConfigRefuseAlike(_ c: Case) throws {
        let w = try Workspace()
        try w.file("password", "s3cr3t\n", mode: 0o600)
        try w.file("ca.pem", Self.certificate)
        try w.file("key.pem", Self.key, mode: 0o600)
        let config = try w.config(c.yaml.replacingOccurrences(of: "{D}", with: w.directory))
        let message = c.message.replacingOccurrences(of: "{F}", with: config)
            .replacingOccurrences(of: "{D}", with: w.directory)

        let check = try w.run(["check-config", config])
        #expect(check.status == 78, "check-config: \(check.output)")
        #expect(check.output.contains(message), "check-config: \(check.output)")
        let run = try w.run(["run", "--config", config, "--simulate"])
        #expect(run.status == 78, "run: \(run.output)")
        #expect(run.output.contains(message), "run: \(run.output)")
    }

    /// The good files of the cases above pass both; only a world-readable secret is warned about,
    /// in the `file:line:column: key: …` form of every other warning (issue 34).
    @Test func theGoodFilesPassAndAWorldReadableSecretIsALocatedWarning() throws {
        let w = try Workspace()
        let password = try w.file("password", "s3cr3t\n", mode: 0o644)
        let ca = try w.file("ca.pem", Self.certificate)
        let key = try w.file("key.pem", Self.key, mode: 0o600)
        let config = try w.config(
            "  username: gw\n  password_file: \(password)\n"
                + "  tls:\n    enabled: true\n    ca_file: \(ca)\n    cert_file: \(ca)\n    key_file: \(key)\n    ca_path: \(w.directory)\n"
        )
        let check = try w.run(["check-config", config])
        #expect(check.status == 0, "\(check.output)")
        #expect(
            check.output.contains(
                "warning: \(config):5:18: mqtt.password_file: secret file '\(password)' is world-readable; chmod o-r it"
            ),
            "\(check.output)")
        #expect(!check.output.contains("s3cr3t"))
        chmod(password, 0o640)
        let closed = try w.run(["check-config", config])
        #expect(closed.status == 0 && !closed.output.contains("world-readable"), "\(closed.output)")
    }

    /// `--as-user` reads the files as that user, as the service does: a password file only root
    /// may read passes as root and fails as `nobody`. Without root it refuses (exit 77).
    @Test func asUserReadsTheFilesAsThatUser() throws {
        let w = try Workspace()
        let password = try w.file("password", "s3cr3t\n", mode: 0o600)
        let config = try w.config("  username: gw\n  password_file: \(password)\n")
        guard geteuid() == 0 else {
            let refused = try w.run(["check-config", config, "--as-user", "nobody"])
            #expect(refused.status == 77, "\(refused.output)")
            #expect(refused.output.contains("check-config: reading files as 'nobody' needs root (try sudo)"))
            return
        }
        #expect(try w.run(["check-config", config]).status == 0)
        let asRoot = try w.run(["check-config", config, "--as-user", "root"])
        #expect(asRoot.status == 0, "\(asRoot.output)")
        #expect(asRoot.output.contains("\(config): OK"), "\(asRoot.output)")
        let asNobody = try w.run(["check-config", config, "--as-user", "nobody"])
        #expect(asNobody.status == 78, "\(asNobody.output)")
        #expect(
            asNobody.output.contains(
                "\(config):5:18: mqtt.password_file: cannot read '\(password)': Permission denied"),
            "\(asNobody.output)")
        let unknown = try w.run(["check-config", config, "--as-user", "no-such-user-b2m"])
        #expect(unknown.status == 67, "\(unknown.output)")
        #expect(unknown.output.contains("check-config: no user 'no-such-user-b2m'"), "\(unknown.output)")
    }
}
