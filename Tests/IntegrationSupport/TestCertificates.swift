import BeaconCore
import BeaconWire
import Foundation

/// A throw-away PKI (P-256 keys, quick to make) made with openssl for TLS tests: a CA, a server certificate for
/// localhost/127.0.0.1 signed by it, a client certificate signed by it, and an unrelated CA.
struct TestCertificates {
    let caFile: String
    let serverCert: String
    let serverKey: String
    let clientCert: String
    let clientKey: String
    let otherCAFile: String

    init(in directory: URL) throws {
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func openssl(_ args: [String]) throws { try MosquittoBroker.run("/usr/bin/openssl", args) }
        for ca in ["ca", "other-ca"] {
            try openssl([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=beacon2mqtt test \(ca)",
                "-keyout", path("\(ca).key"), "-out", path("\(ca).crt"),
            ])
        }
        let ext = path("server.ext")
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: ext, atomically: true, encoding: .utf8)
        for (name, subject) in [("server", "/CN=localhost"), ("client", "/CN=gateway-test")] {
            try openssl([
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", subject,
                "-keyout", path("\(name).key"), "-out",
                path("\(name).csr"),
            ])
            var sign = [
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"),
                "-CAcreateserial", "-days", "2", "-out", path("\(name).crt"),
            ]
            if name == "server" { sign += ["-extfile", ext] }
            try openssl(sign)
        }
        caFile = path("ca.crt")
        serverCert = path("server.crt")
        serverKey = path("server.key")
        clientCert = path("client.crt")
        clientKey = path("client.key")
        otherCAFile = path("other-ca.crt")
    }
}
