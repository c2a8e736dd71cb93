import BeaconWire

/// Section `decode`: HCI event bytes → decoded iBeacon fields, single core, on the three streams.
struct DecodeBench {
    var options: BenchOptions

    /// One stream's measurement, kept for the peer comparison.
    struct Measurement {
        var stream: String
        var nanosecondsPerReport: Double
        var tally: DecodeTally
        var checksum: UInt64
    }

    /// Fails loudly when the decoder disagrees with the reference events: a benchmark of a decoder
    /// that accepts the iPhone advert, or misreads the AirLocate beacon, measures nothing useful.
    static func checkReferenceEvents() throws(BenchFailure) {
        var expected = DecodeTally()
        expected.reports = 1
        expected.add(
            address: 0x6A6B_C9A2_3E43, rssi: -77, uuid: HCIEventBuilder.airLocate, major: 100, minor: 0, power: -59)
        let beacon = DecodePath.decode(HCIEventBuilder.referenceIBeacon)
        guard beacon == expected else {
            throw BenchFailure("decoder misreads the reference iBeacon event: \(beacon), expected \(expected)")
        }
        let iPhone = DecodePath.decode(HCIEventBuilder.referenceIPhone)
        guard iPhone.reports == 1, iPhone.iBeacons == 0 else {
            throw BenchFailure("decoder does not reject the iPhone advert: \(iPhone)")
        }
    }

    func measure(_ stream: PacketStream) throws(BenchFailure) -> Measurement {
        let check = stream.decodeAll(DecodePath.decode)
        guard check.reports == stream.count, check.iBeacons == DecodeWorkloads.expectedIBeacons(stream) else {
            throw BenchFailure("stream \(stream.name): decoded \(check.reports) reports, \(check.iBeacons) iBeacons")
        }
        let outcome = Repetitions(minimumSeconds: options.minimumSeconds, count: options.repetitions).run {
            stream.decodeAll(DecodePath.decode).digest
        }
        let reports = Double(outcome.iterations * stream.count)
        return Measurement(
            stream: stream.name, nanosecondsPerReport: outcome.median * 1e9 / reports, tally: check,
            checksum: outcome.checksum)
    }

    func run(into report: inout BenchReport) throws(BenchFailure) -> [Measurement] {
        try Self.checkReferenceEvents()
        var measurements: [Measurement] = []
        for stream in DecodeWorkloads.all() where options.includes(stream.name) {
            let m = try measure(stream)
            measurements.append(m)
            var result = BenchResult(
                section: "decode", name: stream.name,
                note: DecodePath.isStandIn ? "stand-in decoder (BeaconWire decoder not merged yet)" : "")
            result.add("reports_per_s", 1e9 / m.nanosecondsPerReport, "reports/s")
            result.add("ns_per_report", m.nanosecondsPerReport, "ns/report", decimals: 1)
            result.addHeadroom(reportsPerSecond: 1e9 / m.nanosecondsPerReport)
            result.add("ibeacons_per_pass", Double(m.tally.iBeacons), "iBeacons")
            result.add("checksum", Double(m.checksum % 1_000_000), "chk")
            report.add(result)
        }
        return measurements
    }
}
