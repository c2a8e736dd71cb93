/// `mqtt.tls`: how the broker connection is encrypted and its server checked.
package struct TLSSettings: Sendable, Equatable {
    package var enabled: Bool = false
    package var caFile: String? = nil
    package var caPath: String? = nil
    package var certFile: String? = nil
    package var keyFile: String? = nil
    /// `tlsv1.2` or `tlsv1.3`; nil lets OpenSSL choose.
    package var version: String? = nil
    /// Skip the server host-name check. Logged as a warning.
    package var insecure: Bool = false
    package init() {}
}
