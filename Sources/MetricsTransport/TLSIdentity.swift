/// The endpoint's certificate and private key, PEM text (`metrics.tls_certificate`,
/// `metrics.tls_key`): with one, libmicrohttpd serves HTTPS only.
package struct TLSIdentity: Sendable {
    package var certificate: String
    package var key: String
    package init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}
