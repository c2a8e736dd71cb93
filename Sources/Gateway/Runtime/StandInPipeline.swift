import BeaconCore
import BeaconWire

/// Counts reports and decode errors but publishes nothing: what `run` uses until BeaconCore's
/// monitoring `Pipeline` is wired in (`Pipeline+MessagePipeline.swift`).
struct StandInPipeline: MessagePipeline {
    private(set) var statistics = PipelineStatistics()
    private var seen = Set<BeaconIdentity>()
    private var reports: [AdvertisingReport] = []

    init(configuration: Configuration) {}

    mutating func ingest(_ packet: CapturedPacket, into out: inout [OutboundMessage]) {
        reports.removeAll(keepingCapacity: true)
        do {
            try HCIPacketDecoder.decodeReports(packet.bytes, into: &reports)
        } catch {
            statistics.malformed += 1
        }
        statistics.reports += reports.count
        for report in reports {
            for beacon in BeaconDecoder.beacons(inAD: report.data) {
                if let identity = beacon.identity { seen.insert(identity) }
            }
        }
        statistics.beaconsTracked = seen.count
    }

    mutating func advance(to now: Timestamp, into out: inout [OutboundMessage]) {}
    mutating func reconfigure(_ configuration: Configuration, at now: Timestamp, into out: inout [OutboundMessage]) {}
    mutating func restore(retained: [RetainedMessage], at now: Timestamp) {}
    func retainedMessages() -> [OutboundMessage] { [] }
}
