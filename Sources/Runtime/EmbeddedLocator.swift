import BeaconCore
import MQTTTransport
import MetricsTransport
import Platform
import Settings

/// The locator `run` runs beside the gateway when `locator.enabled` is true, on its own MQTT
/// session (`LocateService`), following the configuration while the gateway runs: the agent core
/// returns `configureLocator` when what the locator is built from changes (`LocatorSetup`), and
/// the agent's shell hands that configuration here. Switched on, it starts; switched off, it
/// stops (deciding once more and leaving `offline` on its status topic); otherwise the running
/// locator takes the new settings and keeps its tracks. Used from the pipeline thread only.
package final class EmbeddedLocator {
    private let connection: MQTTConnectionOptions
    private let logger: Logger
    private let board: MetricsBoard?
    private var service: LocateService?

    package init(connection: MQTTConnectionOptions, logger: Logger, metrics board: MetricsBoard? = nil) {
        self.connection = connection
        self.logger = logger
        self.board = board
    }

    package var isRunning: Bool { service != nil }

    /// Starts, reconfigures or stops the locator as `c.locator.enabled` says.
    package func apply(_ c: Configuration) {
        guard c.locator.enabled else { return stop() }
        if let service { return service.reconfigure(c) }
        var logger = self.logger
        logger.level = c.logLevel
        let started = LocateService(
            configuration: c, settings: c.locator, connection: connection, logger: logger, metrics: board)
        started.start()
        service = started
    }

    /// Stops the locator if it runs (at the end of `run`, or when `locator.enabled` goes false).
    package func stop() {
        guard let service else { return }
        service.stop()
        self.service = nil
        logger.info("embedded locator stopped")
    }
}
