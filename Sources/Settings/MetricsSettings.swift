/// `metrics:` in the configuration: the Prometheus endpoint (docs/metrics.md). Off by default.
package struct MetricsSettings: Sendable, Equatable {
    /// `metrics.listen`: an address and port to serve `/metrics` and `/healthz` on; nil: off.
    package var listen: Endpoint? = nil
    /// `metrics.locator_listen`: where `beacon2mqtt locate` serves them; nil: `locatorEndpoint`'s default.
    package var locatorListen: Endpoint? = nil
    /// `metrics.map`: serve the live map (`/map`, `/map.json`, `/map/events`) where the locator runs.
    package var map = false
    /// `metrics.map_password_file`: `user:password` lines; the map asks for one of them (HTTP basic auth).
    package var mapPasswordFile: String? = nil
    /// `metrics.tls_certificate` and `metrics.tls_key`: PEM files; with them the endpoint speaks HTTPS only.
    package var tlsCertificate: String? = nil
    package var tlsKey: String? = nil

    /// Where `locate` serves: `locator_listen`, or `listen`'s address on the next port, so `run`
    /// and `locate` with one configuration on one host never contend for a port.
    package var locatorEndpoint: Endpoint? {
        locatorListen ?? listen.flatMap { $0.port < 65535 ? Endpoint(address: $0.address, port: $0.port + 1) : nil }
    }

    package struct Endpoint: Sendable, Equatable, CustomStringConvertible {
        /// Dotted IPv4 (`127.0.0.1`, `0.0.0.0` for every interface) or IPv6 without brackets
        /// (`::1`, `::` for every interface, IPv4 included).
        package var address: String
        package var port: Int
        package init(address: String, port: Int) {
            self.address = address
            self.port = port
        }
        package var isIPv6: Bool { address.contains(":") }
        /// As written in the configuration: `127.0.0.1:9851`, `[::1]:9851`.
        package var description: String { isIPv6 ? "[\(address)]:\(port)" : "\(address):\(port)" }
        /// Reachable from this host only: 127.0.0.0/8 or ::1.
        package var isLoopback: Bool {
            if isIPv6 { return address == "::1" || address.hasPrefix("::ffff:127.") }
            return address.hasPrefix("127.")
        }
    }

    package init(listen: Endpoint? = nil, locatorListen: Endpoint? = nil) {
        self.listen = listen
        self.locatorListen = locatorListen
    }
}
