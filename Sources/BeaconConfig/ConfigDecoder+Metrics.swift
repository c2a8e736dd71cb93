import BeaconCore
import Glibc
import Settings

extension ConfigDecoder {
    /// `metrics:`: the Prometheus endpoint (docs/metrics.md).
    mutating func metrics(_ value: ConfigValue, into s: inout MetricsSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.readOptional("listen", into: &s.listen) { v throws(ConfigError) in try Self.endpoint(v) }
        try m.readOptional("locator_listen", into: &s.locatorListen) { v throws(ConfigError) in try Self.endpoint(v) }
        if let listen = s.listen, let v = m["locator_listen"], s.locatorListen == listen {
            throw v.error("is metrics.listen's address and port; run and locate on one host cannot share one")
        }
        if let listen = s.listen, listen.port == 65535, s.locatorListen == nil, let v = m["listen"] {
            throw v.error(
                "port 65535 leaves no next port for locate (metrics.locator_listen's default); set metrics.locator_listen"
            )
        }
        try m.read("map", into: &s.map) { v throws(ConfigError) in try v.bool() }
        for (key, path) in [
            ("map_password_file", \MetricsSettings.mapPasswordFile), ("tls_certificate", \.tlsCertificate),
            ("tls_key", \.tlsKey),
        ] {
            try m.readOptional(key, into: &s[keyPath: path]) { v throws(ConfigError) in try v.nonEmptyText() }
        }
        if (s.tlsCertificate == nil) != (s.tlsKey == nil), let v = m["tls_certificate"] ?? m["tls_key"] {
            throw v.error("needs both metrics.tls_certificate and metrics.tls_key")
        }
        if let file = s.tlsCertificate, let v = m["tls_certificate"] { named(file, .certificate, at: v) }
        if let file = s.tlsKey, let v = m["tls_key"] { named(file, .privateKey, at: v) }
        if let file = s.mapPasswordFile, let v = m["map_password_file"] { named(file, .credentials, at: v) }
        guard s.map, let v = m["map"] else { return }
        let endpoints = [s.listen, s.locatorEndpoint].compactMap { $0 }
        if endpoints.isEmpty {
            throw v.error("needs metrics.listen or metrics.locator_listen: the map is served there")
        }
        // The map shows where people are: beyond this host only behind a password and TLS.
        if let open = endpoints.first(where: { !$0.isLoopback }), s.mapPasswordFile == nil || s.tlsCertificate == nil {
            throw v.error(
                "would show positions beyond this host on \(open); set metrics.map_password_file, "
                    + "metrics.tls_certificate and metrics.tls_key, or listen on a loopback address (127.0.0.1, [::1])")
        }
    }

    /// `address:port`: a dotted IPv4 address, or an IPv6 address in brackets (RFC 3986's
    /// `[::1]:9851`), and a port from 1 to 65535. Addresses are checked with inet_pton, the parser
    /// the server binds with.
    static func endpoint(_ v: ConfigValue) throws(ConfigError) -> MetricsSettings.Endpoint {
        let text = try v.text()
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw v.error("an IPv6 address needs its port after the bracket, like [::1]:9851, found '\(text)'")
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
            guard Self.parses(host, family: AF_INET6) else {
                throw v.error("'\(host)' is not an IPv6 address (like ::1, or :: for every interface)")
            }
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else {
                throw v.error("an IPv6 address goes in brackets, like [::1]:9851, found '\(text)'")
            }
            guard parts.count == 2 else {
                throw v.error("must be an address and a port, like 127.0.0.1:9851 or [::1]:9851, found '\(text)'")
            }
            host = parts[0]
            port = parts[1]
            // inet_pton takes dotted quads only (no "127.1", no octal), as a reader expects.
            guard Self.parses(host, family: AF_INET) else {
                throw v.error(
                    "'\(host)' is not an IPv4 address (like 127.0.0.1, or 0.0.0.0 for every interface; "
                        + "IPv6 in brackets, like [::1])")
            }
        }
        guard port.allSatisfy(\.isASCII), let number = Int(port), (1...65535).contains(number) else {
            throw v.error("port must be from 1 to 65535, found '\(port)'")
        }
        return MetricsSettings.Endpoint(address: String(host), port: number)
    }

    private static func parses(_ host: Substring, family: Int32) -> Bool {
        var buffer = in6_addr()
        return !host.isEmpty && inet_pton(family, String(host), &buffer) == 1
    }
}
