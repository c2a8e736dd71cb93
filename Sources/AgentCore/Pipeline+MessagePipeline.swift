import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import Vocabulary

/// BeaconCore's pipeline drives the agent: retained `attributes` read back from the broker are
/// parsed here (`RetainedAttributes`), and the monitor drops those older than restore_max_age;
/// those of regions and beacons no longer configured are cleared.
extension Pipeline: MessagePipeline {
    package mutating func restore(retained: [RetainedMessage], at now: Timestamp, into out: inout [OutboundMessage]) {
        let base = configuration.mqtt.baseTopic
        let gateway = configuration.gateway.id
        restore(
            retained.compactMap {
                RetainedAttributes.restoredState(
                    topic: $0.topic, payload: $0.payload, baseTopic: base, gatewayID: gateway)
            })
        withdrawUnmonitored(retained.map(\.topic), into: &out)
    }

    package var statistics: PipelineStatistics {
        let c = counters
        var s = PipelineStatistics(reports: c.reports, beaconsTracked: c.monitor.tracked, malformed: c.malformed)
        s.malformedReasons = c.malformedReasons
        s.enters = c.monitor.enterEvents
        s.exits = c.monitor.exitEvents
        s.unresolvedPrivateAddresses = c.unresolvedPrivateAddresses
        return s
    }
}
