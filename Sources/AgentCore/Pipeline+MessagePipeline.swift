import BeaconCore
import BeaconWire
import MessageContract

/// BeaconCore's pipeline drives the agent: retained `attributes` read back from the broker are
/// parsed here (`RetainedAttributes`), and the monitor drops those older than restore_max_age.
extension Pipeline: MessagePipeline {
    package mutating func restore(retained: [RetainedMessage], at now: Timestamp) {
        let base = configuration.mqtt.baseTopic
        let gateway = configuration.gateway.id
        restore(
            retained.compactMap {
                RetainedAttributes.restoredState(
                    topic: $0.topic, payload: $0.payload, baseTopic: base, gatewayID: gateway)
            })
    }

    package var statistics: PipelineStatistics {
        let c = counters
        return PipelineStatistics(reports: c.reports, beaconsTracked: c.monitor.tracked, malformed: c.malformed)
    }
}
