import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import Vocabulary

/// Section `messages`: what one gateway sends the broker for beacons that stay put, with the
/// default publish policy (issue #18: ≤ 0.2 messages/s per beacon per gateway). 500 beacons in 10
/// regions at 3,000 reports/s (6 reports/s each, ±3 dB of jitter around a fixed distance),
/// through the whole pure pipeline on the packets' clock; a 60 s warm-up (the enters, the first
/// states and proximity messages) is not counted, then 10 simulated minutes are, by kind.
struct MessageRateBench {
    var options: BenchOptions

    static let beacons = 500
    static let rate = 3_000.0
    static let warmUp = 60
    static let counted = 600

    func run(into report: inout BenchReport) throws(BenchFailure) {
        let population = BeaconPopulation(beacons: Self.beacons, regions: 10)
        var configuration = Configuration()
        configuration.gateway.id = "bench"
        configuration.regions = population.allRegions
        var pipeline = Pipeline(configuration: configuration)
        let start = Timestamp(microseconds: 1_767_225_600_000_000)  // 2026-01-01T00:00:00Z
        var out: [OutboundMessage] = []
        var perKind: [OutboundMessage.Kind: Int] = [:]
        // A minute at a time, so the capture never sits in memory whole.
        for minute in 0..<(Self.warmUp + Self.counted) / 60 {
            let from = start + TimeSpan.seconds(Int64(60 * minute))
            for packet in population.stream(count: Int(Self.rate) * 60, rate: Self.rate, start: from) {
                pipeline.ingest(packet, into: &out)
                if minute * 60 >= Self.warmUp { for m in out { perKind[m.kind, default: 0] += 1 } }
                out.removeAll(keepingCapacity: true)
            }
        }
        let total = perKind.values.reduce(0, +)
        guard pipeline.counters.beacons > 0, total > 0 else { throw BenchFailure("the pipeline published nothing") }
        let perBeaconSecond = { (n: Int) in Double(n) / Double(Self.beacons * Self.counted) }
        var r = BenchResult(
            section: "messages", name: "\(Self.beacons) beacons staying put, 3,000 reports/s, default policy")
        r.add("messages_per_beacon_s", perBeaconSecond(total), "msg/s per beacon", decimals: 3)
        for kind in perKind.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            r.add("\(kind.rawValue)_per_beacon_s", perBeaconSecond(perKind[kind]!), "\(kind.rawValue)", decimals: 3)
        }
        r.note = "target ≤ 0.2 msg/s per beacon: " + (perBeaconSecond(total) <= 0.2 ? "met" : "NOT met")
        report.add(r)
    }
}
