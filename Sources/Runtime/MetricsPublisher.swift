import AgentCore
import MetricsContract
import MetricsTransport
import Platform
import Vocabulary

/// The pipeline thread's side of `/metrics`: after each turn it observes the report-to-publish
/// latency (from when the turn's packets were posted to when their messages went to the MQTT
/// library) and, every `interval` or when the broker connection or source health changed, builds
/// a snapshot and swaps it into the board. The HTTP thread never touches the core.
struct MetricsPublisher {
    static let interval = 0.1

    let board: MetricsBoard
    let adapter: String
    let source: any PacketSource
    private var histogram = LatencyHistogram()
    private var handedOver = 0
    private var lastPublished: MonotonicInstant?
    private var lastState: (connected: Bool, healthy: Bool)?

    init(board: MetricsBoard, adapter: String, source: any PacketSource) {
        self.board = board
        self.adapter = adapter
        self.source = source
    }

    mutating func turned<Pipeline>(_ core: AgentCore<Pipeline>, posted: MonotonicInstant?) {
        let now = MonotonicClock.now()
        let sent = core.handedOver
        if let posted, sent > handedOver { histogram.observe(now.seconds(since: posted), times: sent - handedOver) }
        handedOver = sent
        let state = (core.isConnected, core.sourceHealth == .healthy)
        let changed = lastState.map { $0 != state } ?? true
        guard changed || lastPublished.map({ now.seconds(since: $0) >= Self.interval }) ?? true else { return }
        lastPublished = now
        lastState = state
        var metrics = core.metrics(adapter: adapter)
        let fromSource = source.metrics
        metrics.adapterResets = fromSource.resets
        metrics.scanMode = fromSource.scanMode
        metrics.reportToPublish = histogram
        board.publish(metrics)
    }
}
