import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// The retained stats document (docs/topics.md, "Stats") and when it is due: uptime, rates and
/// deadlines on the monotonic clock (a wall-clock step moves none), the timestamp on the wall clock.
package struct AgentStatistics: Sendable {
    private let started: MonotonicInstant
    private var lastAt: MonotonicInstant
    private var lastReports = 0
    /// When the next stats go out; nil while they are off (`mqtt.stats_interval: 0`).
    package private(set) var nextDue: MonotonicInstant?

    /// The first stats go out this soon after start (or the interval, if shorter), so a gateway's
    /// health — and Home Assistant's diagnostic sensors — have values within seconds, not a minute.
    package static let firstStats = TimeSpan.seconds(5)

    package init(started: MonotonicInstant, interval: TimeSpan) {
        self.started = started
        lastAt = started
        nextDue = Self.firstStats(after: started, interval: interval)
    }

    /// True when stats are due at `now`; the next ones follow `interval` (at least 1 s) from now.
    /// An interval of 0 is off: never due. A reload that turns them on (or off) takes effect at the
    /// next call: the first stats then follow as they do at start.
    package mutating func isDue(at now: MonotonicInstant, interval: TimeSpan) -> Bool {
        guard let due = nextDue, interval > .zero else {
            nextDue = Self.firstStats(after: now, interval: interval)
            return false
        }
        guard now >= due else { return false }
        nextDue = now + max(interval, .seconds(1))
        return true
    }

    private static func firstStats(after now: MonotonicInstant, interval: TimeSpan) -> MonotonicInstant? {
        interval > .zero ? now + min(interval, firstStats) : nil
    }

    /// The next stats payload; the rate covers the time since the previous one.
    package mutating func payload(
        at now: MonotonicInstant, wall: Timestamp, pipeline: PipelineStatistics, published: Int, queued: Int,
        dropped: Int, reconnects: Int, degraded: String?, scanner: ScannerSettings
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
