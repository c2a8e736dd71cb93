import BeaconCore
import BeaconWire
import MessageContract
import Vocabulary

/// Section `map`: what the live map (`metrics.map`) costs the locator's loop, in process, on the
/// `locator` section's sites with positions: each tick the tracks are updated (`Locator.record`),
/// and at most twice a second the document is built and encoded (`Locator.liveMap`, `json`), as
/// `LocateService` does. After 40 s of the walk (every beacon placed, the movers' tracks grown),
/// both are timed on the thread's CPU clock, and the document's size is reported.
struct MapBench {
    var options: BenchOptions

    func run(into report: inout BenchReport) throws(BenchFailure) {
        let sites =
            options.quick
            ? [LocatorBench.Site(gateways: 10, beacons: 200, positions: true)]
            : [
                LocatorBench.Site(gateways: 10, beacons: 200, positions: true),
                LocatorBench.Site(gateways: 50, beacons: 2_000, positions: true),
                LocatorBench.Site(gateways: 500, beacons: 20_000, positions: true),
            ]
        for site in sites where options.includes(site.name) { report.add(try measure(site, seconds: 40)) }
    }

    private func measure(_ site: LocatorBench.Site, seconds: Int) throws(BenchFailure) -> BenchResult {
        let start = Timestamp(microseconds: 1_767_225_600_000_000)  // 2026-01-01T00:00:00Z
        var composers = LocatorBench.composers(site)
        var settings = LocatorSettings()
        settings.positions.plan = LocatorBench.sitePlan(site)
        var locator = Locator(settings: settings)
        var trails = LiveMapTrails()
        var recordCPU: [Double] = []
        var round: [OutboundMessage] = []
        var out: [OutboundMessage] = []
        var now = start
        for second in 0..<seconds {
            now = start + TimeSpan.seconds(Int64(second))
            round.removeAll(keepingCapacity: true)
            LocatorBench.round(
                site, second: second, at: now, beacons: 0..<site.beacons, composers: &composers, into: &round)
            for m in round { locator.handle(topic: m.topic, payload: m.payload.text) }
            out.removeAll(keepingCapacity: true)
            locator.advance(to: now, into: &out)
            let t0 = BenchClock.threadCPUNow()
            locator.record(&trails)
            recordCPU.append(Double(BenchClock.threadCPUNow() &- t0) / 1e9)
        }
        var encodeCPU: [Double] = []
        var bytes = 0
        var placed = 0
        for _ in 0..<max(options.repetitions, 3) {
            let t0 = BenchClock.threadCPUNow()
            let map = locator.liveMap(trails: trails, at: now)
            let json = map.json
            encodeCPU.append(Double(BenchClock.threadCPUNow() &- t0) / 1e9)
            bytes = json.utf8.count
            placed = map.beacons.count { $0.location.position != nil }
        }
        guard placed == site.beacons else {
            throw BenchFailure("\(site.name): the map placed \(placed) of \(site.beacons) beacons")
        }
        var r = BenchResult(section: "map", name: site.name)
        r.add("record_median_ms", Repetitions.Outcome.median(recordCPU) * 1e3, "ms/tick (tracks)", decimals: 3)
        r.add("document_ms", Repetitions.Outcome.median(encodeCPU) * 1e3, "ms/document", decimals: 2)
        r.add("document_bytes", Double(bytes), "bytes")
        r.add(
            "loop_share", Repetitions.Outcome.median(encodeCPU) * 2 * 100, "% of a core at 2 documents/s", decimals: 2)
        return r
    }
}
