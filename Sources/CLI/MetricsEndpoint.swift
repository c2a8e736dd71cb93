import BeaconConfig
import BeaconCore
import MetricsTransport
import Platform
import Runtime
import Settings

/// `metrics.listen` for `run` and `locate`: the board the loops publish to and the HTTP server
/// that reads it, started before the loops and stopped after them.
struct MetricsEndpoint {
    /// nil when metrics.listen is off.
    let board: MetricsBoard?
    private let server: MetricsServer?

    /// The endpoint `settings` ask for (one serving nothing when metrics.listen is off); nil, after
    /// logging why, when the address cannot be listened on or a file it names cannot be read (the
    /// command exits 69). The files were checked at start (`StartChecks`).
    static func start(for role: StartChecks.Role, _ settings: MetricsSettings, logger: Logger) -> MetricsEndpoint? {
        guard let listen = role.metricsEndpoint(settings) else { return MetricsEndpoint(board: nil, server: nil) }
        let board = MetricsBoard(version: Version.string)
        do {
            let map = try settings.map ? mapAccess(settings) : nil
            let tls = try tlsIdentity(settings)
            let server = try MetricsServer(
                board: board, address: listen.address, port: listen.port, map: map, tls: tls)
            let paths = "/metrics /healthz" + (map == nil ? "" : " /map /map.json /map/events")
            logger.info(
                "serving metrics",
                ["listen": listen.description, "paths": paths, "scheme": tls == nil ? "http" : "https"])
            return MetricsEndpoint(board: board, server: server)
        } catch {
            logger.error("\(role.metricsKey): \(error)")
            return nil
        }
    }

    /// The map's access: with a password file, the `Authorization` header of each of its users.
    private static func mapAccess(_ settings: MetricsSettings) throws -> MapAccess {
        guard let path = settings.mapPasswordFile else { return MapAccess() }
        let entries = try MapPasswordFile.parse(try FileSystem.text(path))
        return MapAccess(
            authorizations: entries.map { "Basic " + Base64.encode(Array("\($0.user):\($0.password)".utf8)) })
    }

    private static func tlsIdentity(_ settings: MetricsSettings) throws -> TLSIdentity? {
        guard let certificate = settings.tlsCertificate, let key = settings.tlsKey else { return nil }
        return TLSIdentity(certificate: try FileSystem.text(certificate), key: try FileSystem.text(key))
    }

    func stop() { server?.stop() }
}
