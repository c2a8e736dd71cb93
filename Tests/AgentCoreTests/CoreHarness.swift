import AgentCore
import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// An `AgentCore` on a manual clock with a fake broker: the monotonic and the wall clock move
/// only when a test says so, and independently.
struct CoreHarness {
    var core: AgentCore<FakePipeline>
    var broker = FakeBroker()
    var now = MonotonicInstant(nanoseconds: 5_000_000_000)
    var wall = Timestamp(microseconds: 1_700_000_000_000_000)
    /// Every action the core returned, in order.
    var actions: [AgentAction] = []
    static let statusTopic = "b/gateways/gw/status"

    init(
        timing: AgentOptions.Timing = .wallClock, pipeline: FakePipeline = FakePipeline(),
        remote: RemoteConfiguration? = nil, announcesAdvertising: Bool = false,
        configure: (inout Configuration) -> Void = { _ in }
    ) {
        var configuration = Configuration()
        configuration.gateway.id = "gw"
        configuration.mqtt.baseTopic = "b"
        configure(&configuration)
        var options = AgentOptions(timing: timing)
        options.announcesAdvertising = announcesAdvertising
        core = AgentCore(
            configuration: configuration, pipeline: pipeline, options: options,
            statusTopic: Self.statusTopic, statusQoS: 1, now: now, wall: wall,
            remote: remote)
    }

    /// Moves the monotonic clock by `seconds` and the wall clock by `seconds + wallStep`.
    mutating func pass(_ seconds: Double, wallStep: Double = 0) {
        now = now + TimeSpan(microseconds: Int64((seconds * 1e6).rounded()))
        wall = wall + TimeSpan(microseconds: Int64((seconds + wallStep) * 1_000_000))
    }

    mutating func tick() {
        core.tick(at: now, wall: wall, &broker)
        actions += core.takeActions()
    }

    mutating func handle(_ input: AgentInput) {
        core.handle(input, at: now, wall: wall, &broker)
        actions += core.takeActions()
    }

    mutating func packet(_ n: UInt8) { handle(.source(.packet(FakePipeline.packet(n, at: Int64(n) * 100_000)))) }

    /// Acknowledges every publish not acknowledged yet.
    mutating func acknowledgeAll(generation: UInt64 = 1) {
        while acknowledged < broker.published.count {
            let mid = broker.published[acknowledged].mid
            acknowledged += 1
            handle(.mqtt(.published(generation: generation, mid: mid)))
        }
    }

    private var acknowledged = 0

    /// Connects and answers the restore's subscriptions, then lets its quiet period pass.
    mutating func connectAndRestore() {
        handle(.mqtt(.connected(generation: 1)))
        for mid in broker.subscriptionMids { handle(.mqtt(.subscribed(generation: 1, mid: mid))) }
        pass(0.3)
        tick()
    }

    var logs: [String] { actions.compactMap { if case .log(let r) = $0 { r.description } else { nil } } }
    var notices: [AgentAction.ServiceNotice] { actions.compactMap { if case .notify(let n) = $0 { n } else { nil } } }
}
