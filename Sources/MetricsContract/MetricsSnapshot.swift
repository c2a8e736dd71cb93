/// What one scrape shows: the values the pipeline thread (and the locator's) last published, and
/// the process figures read at scrape time. Plain values, rendered by `MetricsExposition`.
package struct MetricsSnapshot: Sendable, Equatable {
    /// `beacon2mqtt_build_info{version}`.
    package var version: String
    /// The gateway's pipeline (`run`); nil in `locate`.
    package var gateway: GatewayMetrics?
    /// The locator (`locate`, or `run` with locator.enabled).
    package var locator: LocatorMetrics?
    /// nil when /proc could not be read.
    package var process: ProcessMetrics?

    package init(
        version: String, gateway: GatewayMetrics? = nil, locator: LocatorMetrics? = nil, process: ProcessMetrics? = nil
    ) {
        self.version = version
        self.gateway = gateway
        self.locator = locator
        self.process = process
    }

    /// `/healthz`: healthy while the source is healthy and the broker connected (the gateway's,
    /// else the locator's); otherwise every reason, worded for the operator.
    package var problems: [String] {
        var problems: [String] = []
        if let gateway {
            if let reason = gateway.sourceProblem { problems.append("source degraded: \(reason)") }
            if !gateway.broker.connected { problems.append("broker not connected") }
        }
        if let locator, !locator.broker.connected { problems.append("locator: broker not connected") }
        if gateway == nil, locator == nil { problems.append("starting") }
        return problems
    }
}

/// One MQTT session's state.
package struct BrokerMetrics: Sendable, Equatable {
    package var connected: Bool
    /// Successful connects after the first.
    package var reconnects: Int
    package init(connected: Bool = false, reconnects: Int = 0) {
        self.connected = connected
        self.reconnects = reconnects
    }
}

/// One outbox lane's counts (`must_deliver`, `expendable`).
package struct LaneMetrics: Sendable, Equatable {
    package var lane: String
    /// Written (QoS 0) or acknowledged (QoS ≥ 1).
    package var published: Int
    /// Coalesced, dropped under pressure, or refused by the client library.
    package var dropped: Int
    /// Queued plus in flight now.
    package var queued: Int
    package init(lane: String, published: Int, dropped: Int, queued: Int) {
        self.lane = lane
        self.published = published
        self.dropped = dropped
        self.queued = queued
    }
}

/// The gateway's figures, as the pipeline thread last published them.
package struct GatewayMetrics: Sendable, Equatable {
    /// The `adapter` label: the scanner's adapter, or the replay/simulation source.
    package var adapter: String
    package var reports = 0
    /// Malformed packets by reason (label value → count), in a fixed order.
    package var malformed: [(reason: String, count: Int)] = []
    package var beaconsTracked = 0
    /// Configured regions: inside (true), outside or not yet determined (false).
    package var regions: [(name: String, inside: Bool)] = []
    package var enters = 0
    package var exits = 0
    /// Resolvable private addresses no configured IRK resolved.
    package var unresolvedPrivateAddresses = 0
    package var lanes: [LaneMetrics] = []
    package var broker = BrokerMetrics()
    /// nil while the source is healthy.
    package var sourceProblem: String?
    /// Reopens and resets of the adapter.
    package var adapterResets = 0
    /// The scan mode (`active`, `passive`, `listen`) for a live adapter; nil for other sources.
    package var scanMode: String?
    package var reportToPublish = LatencyHistogram()

    package init(adapter: String) { self.adapter = adapter }

    package static func == (a: Self, b: Self) -> Bool {
        a.adapter == b.adapter && a.reports == b.reports && a.malformed.elementsEqual(b.malformed, by: ==)
            && a.beaconsTracked == b.beaconsTracked && a.regions.elementsEqual(b.regions, by: ==)
            && a.enters == b.enters && a.exits == b.exits
            && a.unresolvedPrivateAddresses == b.unresolvedPrivateAddresses && a.lanes == b.lanes
            && a.broker == b.broker
            && a.sourceProblem == b.sourceProblem && a.adapterResets == b.adapterResets && a.scanMode == b.scanMode
            && a.reportToPublish == b.reportToPublish
    }
}

/// The locator's figures.
package struct LocatorMetrics: Sendable, Equatable {
    /// Beacons with a current location.
    package var locations: Int
    /// Location changes decided since start.
    package var changes: Int
    /// Beacons whose location is `unknown`.
    package var unknown: Int
    /// Per gateway the locator knows, by id: whether it can hear (its status not offline or degraded).
    package var gateways: [GatewayUp]
    package var broker: BrokerMetrics
    /// Each gateway's clock as the locator sees it, by gateway id.
    package var clocks: [GatewayClock]
    /// Readings not counted because they arrived later than `locator.clock_tolerance`.
    package var lateReadings: Int
    /// The gateways' messages whose payload the locator could not read, skipped.
    package var malformed: Int
    /// `locator.foreign_sources`' messages by outcome (label value → count), in a fixed order.
    package var foreignMessages: [ForeignOutcome]

    /// How many foreign messages came to one outcome (`reading`, `malformed`, …).
    package struct ForeignOutcome: Sendable, Equatable {
        package var outcome: String
        package var count: Int
        package init(outcome: String, count: Int) {
            self.outcome = outcome
            self.count = count
        }
    }

    /// A gateway and whether it can hear.
    package struct GatewayUp: Sendable, Equatable {
        package var gateway: String
        package var up: Bool
        package init(gateway: String, up: Bool) {
            self.gateway = gateway
            self.up = up
        }
    }

    /// A gateway's clock: its offset from the locator's (seconds) and whether it is corrected.
    package struct GatewayClock: Sendable, Equatable {
        package var gateway: String
        package var offset: Double
        package var skewed: Bool
        package init(gateway: String, offset: Double, skewed: Bool) {
            self.gateway = gateway
            self.offset = offset
            self.skewed = skewed
        }
    }

    package init(
        locations: Int = 0, changes: Int = 0, unknown: Int = 0, gateways: [GatewayUp] = [],
        broker: BrokerMetrics = BrokerMetrics(), clocks: [GatewayClock] = [], lateReadings: Int = 0,
        malformed: Int = 0, foreignMessages: [ForeignOutcome] = []
    ) {
        self.locations = locations
        self.changes = changes
        self.unknown = unknown
        self.gateways = gateways
        self.broker = broker
        self.clocks = clocks
        self.lateReadings = lateReadings
        self.malformed = malformed
        self.foreignMessages = foreignMessages
    }
}

/// The standard `process_*` figures (Prometheus client conventions), read from /proc by Platform.
package struct ProcessMetrics: Sendable, Equatable {
    package var residentMemoryBytes: Int
    package var virtualMemoryBytes: Int
    package var cpuSeconds: Double
    /// Since the Unix epoch.
    package var startTimeSeconds: Double
    package var openFDs: Int
    package var maxFDs: Int
    package init(
        residentMemoryBytes: Int, virtualMemoryBytes: Int, cpuSeconds: Double, startTimeSeconds: Double, openFDs: Int,
        maxFDs: Int
    ) {
        self.residentMemoryBytes = residentMemoryBytes
        self.virtualMemoryBytes = virtualMemoryBytes
        self.cpuSeconds = cpuSeconds
        self.startTimeSeconds = startTimeSeconds
        self.openFDs = openFDs
        self.maxFDs = maxFDs
    }
}
