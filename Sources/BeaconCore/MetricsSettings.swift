/// `metrics:` in the configuration: the Prometheus endpoint (docs/metrics.md). Off by default.
package struct MetricsSettings: Sendable, Equatable {
    /// `metrics.listen`: an IPv4 address and port to serve `/metrics` and `/healthz` on; nil: off.
    package var listen: Endpoint? = nil

    package struct Endpoint: Sendable, Equatable, CustomStringConvertible {
        /// Dotted IPv4 (`127.0.0.1`, or `0.0.0.0` for every interface).
        package var address: String
        package var port: Int
        package init(address: String, port: Int) {
            self.address = address
            self.port = port
        }
        package var description: String { "\(address):\(port)" }
    }

    package init(listen: Endpoint? = nil) { self.listen = listen }
}
