import AgentCore
import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import Vocabulary

/// `AgentCore` over the real `Pipeline` on a manual clock, as `run` with a live source drives it.
struct LiveCore {
    var core: AgentCore<Pipeline>
    var broker = FakeBroker()
    let start = MonotonicInstant(nanoseconds: 7_000_000_000)
    var now: MonotonicInstant
    var wall = Timestamp(microseconds: 1_700_000_000_000_000)
    let steadyOrigin: Timestamp

    init(sourceDelay: TimeSpan = .zero, configure: (inout Configuration) -> Void = { _ in }) {
        var c = Configuration()
        c.gateway.id = "gw"
        c.mqtt.baseTopic = "b"
        c.monitoring.exitTimeout = .seconds(3)
        c.regions = [BeaconRegion(name: "office", uuid: Self.uuid)]
        configure(&c)
        now = start
        steadyOrigin = wall
        var options = AgentOptions(timing: .wallClock)
        options.sourceDelay = sourceDelay
        core = AgentCore(
            configuration: c, pipeline: Pipeline(configuration: c), options: options,
            statusTopic: "b/gateways/gw/status", statusQoS: 1, now: now, wall: wall)
    }

    static let uuid = BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!
    static let report = report(minor: 1)

    /// An iBeacon advertising report of the region's UUID, major 1, from its own address.
    static func report(minor: UInt16, rssi: Int8 = -60) -> [UInt8] {
        AdvertisingReportEvent.bytes(
            address: BluetoothAddress(rawValue: 0xC0FFEE00_0000 + UInt64(minor)), addressType: 0,
            data: (try? BeaconEncoder.advertisingData(
                .iBeacon(IBeacon(uuid: uuid, major: 1, minor: minor, measuredPower: -59)))) ?? [], rssi: rssi)
    }

    /// Both clocks move on; the wall clock by `wallStep` more. Ticks the core.
    mutating func pass(_ seconds: Double, wallStep: Double = 0) {
        now = now + TimeSpan(microseconds: Int64((seconds * 1e6).rounded()))
        wall = wall + TimeSpan(microseconds: Int64(((seconds + wallStep) * 1e6).rounded()))
        core.tick(at: now, wall: wall, &broker)
        _ = core.takeActions()
    }

    /// One advertising report, stamped on the steady timeline (`heldFor` seconds ago: a report the
    /// kernel held, delivered with its receive time).
    mutating func sight(_ report: [UInt8] = Self.report, heldFor: Double = 0) {
        let steady =
            steadyOrigin + TimeSpan(microseconds: (now.nanoseconds - start.nanoseconds) / 1000)
            - TimeSpan(microseconds: Int64((heldFor * 1e6).rounded()))
        core.handle(.source(.packet(CapturedPacket(timestamp: steady, bytes: report))), at: now, wall: wall, &broker)
        _ = core.takeActions()
    }

    /// Acknowledges every publish not acknowledged yet (on_publish: written at QoS 0, PUBACK at 1).
    mutating func acknowledgeAll() {
        while acknowledged < broker.published.count {
            let mid = broker.published[acknowledged].mid
            acknowledged += 1
            core.handle(.mqtt(.published(generation: 1, mid: mid)), at: now, wall: wall, &broker)
            _ = core.takeActions()
        }
    }

    private var acknowledged = 0

    mutating func connectAndRestore() {
        core.handle(.mqtt(.connected(generation: 1)), at: now, wall: wall, &broker)
        for mid in broker.subscriptionMids {
            core.handle(.mqtt(.subscribed(generation: 1, mid: mid)), at: now, wall: wall, &broker)
        }
        pass(0.3)
    }

    /// Payloads of the region's `event` topic with `"event":"<kind>"`.
    func events(_ kind: String) -> [String] {
        broker.published.filter {
            $0.topic.hasSuffix("/event") && $0.topic.contains("office") && $0.payload.contains(#""event":"\#(kind)""#)
        }
        .map(\.payload)
    }
}
