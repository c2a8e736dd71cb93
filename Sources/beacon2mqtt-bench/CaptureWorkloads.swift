import BeaconWire
import Simulation
import Vocabulary

/// Generated btsnoop captures for the sections that run the real agent.
enum CaptureWorkloads {
    /// Where generated captures start: 2026-01-01T00:00:00Z.
    static let origin = Timestamp(microseconds: 1_767_225_600_000_000)

    /// End-to-end: `reports` reports from cohorts of 1,000 beacons over `population.regions` regions.
    /// Each cohort is heard for 2 s of capture time, the next one starts 1 s later, so beacons
    /// enter and exit all along; a sentinel beacon keeps the capture (and its clock) running for
    /// exit timeout + 5 s after the last cohort, so every exit falls inside the capture.
    /// Capture rate: 50,000 reports/s (`--speed max` ignores it). Returns the report count written.
    static func cohorts(
        reports: Int, population: BeaconPopulation, exitTimeout: Int, to path: String
    )
        throws(BenchFailure) -> Int
    {
        let writer = try CaptureFileWriter(path: path)
        let cohortSize = 1_000
        let perSecond = 50_000
        let cohortReports = 2 * perSecond / 2  // two overlapping cohorts share the rate
        var written = 0
        var t = origin
        let interval = TimeSpan(microseconds: 1_000_000 / Int64(perSecond))
        var n = 0
        while written < reports {
            // Second `s` of capture time: cohorts s-1 and s (each heard for 2 s) share the air.
            let second = n / perSecond
            let cohort = (n % 2 == 0 || second == 0) ? second : second - 1
            let local = (n / 2) % cohortSize
            let i = (cohort * cohortSize + local) % population.beacons
            writer.append(population.report(i, sequence: n / cohortReports), at: t)
            written += 1
            n += 1
            t = t + interval
        }
        // Sentinel: a beacon outside every region, 10 reports/s until every exit is due.
        let tail = Int64(exitTimeout + 5) * 10
        for k in 0..<tail {
            writer.append(
                HCIEventBuilder.iBeacon(
                    address: 0xC1_00_00_00_00_01, uuid: BeaconID128(high: 1, low: 1), major: 1, minor: 1,
                    measuredPower: -59, rssi: -70),
                at: t + TimeSpan(microseconds: 100_000 * (k + 1)))
        }
        writer.close()
        return written + Int(tail)
    }

    /// Realistic load: `beacons` beacons heard round-robin at `rate` reports/s for `seconds`.
    static func steady(
        beacons: Int, regions: Int, rate: Int, seconds: Int, to path: String
    ) throws(BenchFailure)
        -> Int
    {
        let writer = try CaptureFileWriter(path: path)
        let population = BeaconPopulation(beacons: beacons, regions: regions)
        let count = rate * seconds
        let interval = 1e6 / Double(rate)
        for n in 0..<count {
            writer.append(
                population.report(n % beacons, sequence: n / beacons),
                at: origin + TimeSpan(microseconds: Int64((Double(n) * interval).rounded())))
        }
        writer.close()
        return count
    }

    /// Flood: `count` reports, each from a new random address and a new random identity.
    static func flood(count: Int, rate: Int, to path: String) throws(BenchFailure) -> Int {
        let writer = try CaptureFileWriter(path: path)
        var rng = SplitMix64(seed: 1_000_000)
        let interval = 1e6 / Double(rate)
        for n in 0..<count {
            writer.append(
                HCIEventBuilder.iBeacon(
                    address: rng.next(), uuid: BeaconID128(high: rng.next(), low: rng.next()),
                    major: UInt16(truncatingIfNeeded: rng.next()), minor: UInt16(truncatingIfNeeded: rng.next()),
                    measuredPower: -59, rssi: Int8(-40 - Int(rng.next() % 50))),
                at: origin + TimeSpan(microseconds: Int64((Double(n) * interval).rounded())))
        }
        writer.close()
        return count
    }
}
