import BeaconCore
import MetricsTransport
import Platform
import Runtime

/// `metrics.listen` for `run` and `locate`: the board the loops publish to and the HTTP server
/// that reads it, started before the loops and stopped after them.
struct MetricsEndpoint {
    /// nil when metrics.listen is off.
    let board: MetricsBoard?
    private let server: MetricsServer?

    /// The endpoint `settings` ask for (one serving nothing when metrics.listen is off); nil, after
    /// logging why, when the address cannot be listened on (the command exits 69).
    static func start(for role: StartChecks.Role, _ settings: MetricsSettings, logger: Logger) -> MetricsEndpoint? {
        guard let listen = role.metricsEndpoint(settings) else { return MetricsEndpoint(board: nil, server: nil) }
        let board = MetricsBoard(version: Version.string)
        do {
            let server = try MetricsServer(board: board, address: listen.address, port: listen.port)
            logger.info("serving metrics", ["listen": listen.description, "paths": "/metrics /healthz"])
            return MetricsEndpoint(board: board, server: server)
        } catch {
            logger.error("\(role.metricsKey): \(error)")
            return nil
        }
    }

    func stop() { server?.stop() }
}
