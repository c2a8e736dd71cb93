import BeaconCore

extension ConfigDecoder {
    /// `metrics:`: the Prometheus endpoint (docs/metrics.md).
    func metrics(_ value: ConfigValue, into s: inout MetricsSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.readOptional("listen", into: &s.listen) { v throws(ConfigError) in try Self.endpoint(v) }
    }

    /// `address:port`: a dotted IPv4 address and a port from 1 to 65535.
    static func endpoint(_ v: ConfigValue) throws(ConfigError) -> MetricsSettings.Endpoint {
        let text = try v.text()
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw v.error("must be an IPv4 address and a port, like 127.0.0.1:9851, found '\(text)'")
        }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4,
            octets.allSatisfy({ o in o.count <= 3 && !o.isEmpty && o.allSatisfy(\.isASCII) && (UInt8(o) != nil) })
        else { throw v.error("'\(parts[0])' is not an IPv4 address (like 127.0.0.1, or 0.0.0.0 for every interface)") }
        guard let port = Int(parts[1]), (1...65535).contains(port) else {
            throw v.error("port must be from 1 to 65535, found '\(parts[1])'")
        }
        return MetricsSettings.Endpoint(address: String(parts[0]), port: port)
    }
}
