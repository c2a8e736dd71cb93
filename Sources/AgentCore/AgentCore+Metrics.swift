import BeaconCore
import GatewayPipeline
import MessageContract
import MetricsContract

extension AgentCore {
    /// The figures `/metrics` shows that the core knows; the shell adds the source's adapter
    /// figures and the latency histogram, and publishes the snapshot for the HTTP thread.
    package func metrics(adapter: String) -> GatewayMetrics {
        let stats = pipeline.statistics
        var m = GatewayMetrics(adapter: adapter)
        m.reports = stats.reports
        m.malformed = stats.malformedReasons.byReason
        m.beaconsTracked = stats.beaconsTracked
        m.regions = pipeline.regionStates.map { ($0.name, $0.state == .inside) }
        m.enters = stats.enters
        m.exits = stats.exits
        m.unresolvedPrivateAddresses = stats.unresolvedPrivateAddresses
        m.lanes = delivery.laneMetrics
        m.broker = BrokerMetrics(connected: isConnected, reconnects: counters.reconnects)
        m.sourceProblem = sourceHealth.degradedReason
        return m
    }

    /// Messages handed to the MQTT library so far (re-sends included).
    package var handedOver: Int { delivery.handedOver }
}
