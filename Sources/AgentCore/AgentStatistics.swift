import BeaconCore
import BeaconWire
import Vocabulary

/// The retained stats document (docs/topics.md, "Stats"): uptime and rates on the monotonic clock, the
/// timestamp on the wall clock.
package struct AgentStatistics: Sendable {
    private let started: MonotonicInstant
    private var lastAt: MonotonicInstant
    private var lastReports = 0
    /// Successful connects after the first.
    package var reconnects = 0

    package init(started: MonotonicInstant) {
        self.started = started
        lastAt = started
    }

    /// The next stats payload; the rate covers the time since the previous one.
    package mutating func payload(
        at now: MonotonicInstant, wall: Timestamp, pipeline: PipelineStatistics, published: Int, queued: Int,
        dropped: Int, degraded: String?, scanner: ScannerSettings
    ) -> String {
        let elapsed = max(now.seconds(since: lastAt), 0.001)
        var json = JSONWriter()
        json.beginObject()
        json.field("uptime", Int(now.seconds(since: started)))
        json.field("reports", pipeline.reports)
        json.field("reports_per_s", Double(pipeline.reports - lastReports) / elapsed)
        json.field("beacons_tracked", pipeline.beaconsTracked)
        json.field("messages_published", published)
        json.field("queued", queued)
        json.field("dropped", dropped)
        json.field("malformed", pipeline.malformed)
        json.field("unresolved_private_addresses", pipeline.unresolvedPrivateAddresses)
        json.field("reconnects", reconnects)
        json.field("degraded", degraded)
        json.field("scan_mode", scanner.mode.rawValue)
        json.field("adapter", scanner.adapter)
        json.field("timestamp", wall.rfc3339)
        json.endObject()
        lastAt = now
        lastReports = pipeline.reports
        return json.text
    }
}
