import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import Vocabulary

/// Section `json`: reading the locator's input, the gateways' `proximity` payloads as the real
/// pipeline writes them (MessageComposer.proximity). Issue #12 asked to measure before choosing the
/// one JSON reader. A C candidate from Debian (jansson 2.14: `json_loadb`, then the same seven
/// `json_object_get` lookups) was timed on these payloads in a scratch package; its figure is the
/// note, so the comparison stays visible without linking a library the daemon does not use.
struct JSONBench {
    var options: BenchOptions

    /// Measured 2026-12-01 on the bench machine (2 cores, loaded) by a scratch package that links
    /// libjansson.a beside this reader, same run: JSONObject 848 ns/doc, tokens only 502 ns,
    /// jansson's json_loadb alone 4,303 ns (it allocates a node and a hash table per document).
    static let janssonNote = "jansson 2.14 on the same docs: 209,461 docs/s, 4774 ns/doc"

    /// The fields `LocatorReading` takes from a proximity payload.
    static let stringFields = ["timestamp", "name", "floor", "room"]
    static let numberFields = ["accuracy", "rssi_filtered", "measured_power"]

    /// Distinct proximity messages from 1,000 beacons' first ranging ticks.
    static func messages() -> [OutboundMessage] {
        let population = BeaconPopulation(beacons: 1_000, regions: 10)
        var configuration = Configuration()
        configuration.gateway.id = "bench"
        configuration.gateway.floor = "2"
        configuration.gateway.room = "office"
        configuration.regions = population.allRegions
        var pipeline = Pipeline(configuration: configuration)
        let start = Timestamp(microseconds: 1_767_225_600_000_000)  // 2026-01-01T00:00:00Z
        var messages: [OutboundMessage] = []
        for packet in population.stream(count: 5_000, rate: 1_000, start: start) {
            pipeline.ingest(packet, into: &messages)
        }
        return Array(messages.filter { $0.kind == .proximity }.prefix(1_000))
    }

    func run(into report: inout BenchReport) throws(BenchFailure) {
        let messages = Self.messages()
        guard !messages.isEmpty else { throw BenchFailure("the pipeline produced no proximity message") }
        let payloads = messages.map(\.payload.text)
        let bytes = Double(payloads.reduce(0) { $0 + $1.utf8.count }) / Double(payloads.count)
        let cases: [(String, () -> UInt64)] = [
            (
                "proximity: JSONReader tokens",
                {
                    var sum: UInt64 = 0
                    for payload in payloads {
                        var reader = JSONReader(payload)
                        while let token = try? reader.next() { if case .key = token { sum &+= 1 } }
                    }
                    return sum
                }
            ),
            (
                "proximity: JSONObject, 7 fields",
                {
                    var sum: UInt64 = 0
                    for payload in payloads {
                        guard let object = try? JSONObject(payload) else { continue }
                        for name in Self.stringFields { sum &+= UInt64(object.string(name)?.utf8.count ?? 0) }
                        for name in Self.numberFields { sum &+= UInt64(bitPattern: Int64(object.number(name) ?? 0)) }
                    }
                    return sum
                }
            ),
            (
                "proximity: LocatorReading",
                {
                    var sum: UInt64 = 0
                    for m in messages {
                        if let r = LocatorReading(topic: m.topic, payload: m.payload.text, baseTopic: "beacons") {
                            sum &+= UInt64(bitPattern: r.timestamp.microseconds)
                        }
                    }
                    return sum
                }
            ),
        ]
        for (name, body) in cases where options.includes(name) {
            let outcome = Repetitions(minimumSeconds: options.minimumSeconds, count: options.repetitions).run(body)
            let seconds = outcome.median / Double(outcome.iterations * payloads.count)
            var result = BenchResult(section: "json", name: name)
            result.add("docs_per_s", 1 / seconds, "docs/s")
            result.add("ns_per_doc", seconds * 1e9, "ns/doc", decimals: 1)
            result.add("mb_per_s", bytes / seconds / 1e6, "MB/s", decimals: 1)
            if name.contains("JSONObject") { result.note = Self.janssonNote }
            report.add(result)
        }
    }
}
