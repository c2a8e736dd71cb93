import BeaconCore
import MetricsTransport
import Platform
import Runtime

/// `metrics.listen` for `run` and `locate`: the board the loops publish to and the HTTP server
/// that reads it, started before the loops and stopped after them.
struct MetricsEndpoint {
    let board: MetricsBoard
    let server: MetricsServer

    /// nil when metrics.listen is off; throws when the address cannot be listened on.
    static func start(_ settings: MetricsSettings, logger: Logger) throws(MetricsServer.StartError) -> MetricsEndpoint? {
        guard let listen = settings.listen else { return nil }
        let board = MetricsBoard(version: Version.string)
        let server = try MetricsServer(board: board, address: listen.address, port: listen.port)
        logger.info("serving metrics", ["listen": listen.description, "paths": "/metrics /healthz"])
        return MetricsEndpoint(board: board, server: server)
    }
}
