import BeaconWire
import Testing

/// Truncated, mutated and growing inputs: the decoders must never trap; they either decode or
/// throw their typed error, with an offset inside the input.
@Suite struct RobustnessTests {
    /// SplitMix64: a tiny seeded generator so every run mutates the same way.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where !bytes.isEmpty:
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[i] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
            case 1 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            case 2:
                bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
            default:
                if !bytes.isEmpty { bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng)) }
            }
        }
        return bytes
    }

    /// Decodes and exercises everything downstream; returns the reports delivered and the error.
    @discardableResult
    static func exercise(
        _ bytes: [UInt8], _ indicator: H4Indicator, json: Bool = false
    )
        -> (reports: [AdvertisingReport], error: DecodeError?)
    {
        var reports: [AdvertisingReport] = []
        var failure: DecodeError?
        do {
            try HCIPacketDecoder.decodeReports(bytes, indicator: indicator, into: &reports)
        } catch {
            failure = error
            // Plain checks in these hot loops: #expect per iteration would dominate the run time.
            if error.offset < 0 || error.offset > bytes.count || error.description.isEmpty {
                Issue.record("\(error) for \(Hex.string(bytes))")
            }
        }
        for report in reports {
            _ = BeaconDecoder.beacons(inAD: report.data)
            _ = BeaconDecoder.firstIdentifiedBeacon(inAD: report.data)
            let (_, truncatedAt) = ADStructure.parse(report.data)
            if let truncatedAt, truncatedAt >= report.data.count { Issue.record("AD truncated beyond its end") }
            if json, ReportJSON.line(for: report).isEmpty { Issue.record("empty JSON") }
        }
        return (reports, failure)
    }

    /// Distinct packets of all captures (repeated adverts add nothing).
    static var capturePackets: [[UInt8]] {
        var seen = Set<[UInt8]>()
        return CaptureFixtures.all.flatMap { (try? CaptureFixtures.packets($0.capture)) ?? [] }.map(\.bytes)
            .filter { seen.insert($0).inserted }
    }

    @Test func everyPrefixOfEveryVectorAndCapturePacketDecodesOrThrows() {
        let inputs = HCIVectors.all + Self.capturePackets
        #expect(inputs.count > 1000)
        for input in inputs {
            let full = Self.exercise(input, .present, json: true)
            for length in 0..<input.count {
                let prefix = Array(input.prefix(length))
                let (reports, error) = Self.exercise(prefix, .present)
                // A cut packet keeps its complete reports, identical to the full decode's first ones.
                if reports != Array(full.reports.prefix(reports.count)) { Issue.record("prefix \(length) of \(input)") }
                if input.first == 0x04, error == nil { Issue.record("cut event decoded without error: \(prefix)") }
                Self.exercise(prefix, .auto)
                Self.exercise(Array(prefix.dropFirst()), .absent)
            }
        }
    }

    @Test func seededMutationsNeverTrap() {
        var rng = SplitMix64(state: 0x5EED_BEAC)
        let captures = Self.capturePackets.filter { $0.count > 20 }
        let inputs = HCIVectors.all + stride(from: 0, to: captures.count, by: 7).map { captures[$0] }
        for input in inputs {
            for _ in 0..<60 {
                let mutated = Self.mutate(input, &rng)
                Self.exercise(mutated, .auto)
                Self.exercise(mutated, .present)
            }
        }
    }

    @Test func beaconDecoderSurvivesPrefixesAndMutationsOfEveryADVector() {
        var rng = SplitMix64(state: 42)
        for ad in BeaconVectors.all {
            for length in 0...ad.count {
                let prefix = Array(ad.prefix(length))
                let found = BeaconDecoder.beacons(inAD: prefix)
                // A cut structure is dropped whole: a prefix never yields more frames than the full data.
                #expect(found.count <= BeaconDecoder.beacons(inAD: ad).count)
                _ = BeaconDecoder.firstIdentifiedBeacon(inAD: prefix)
            }
            for _ in 0..<300 {
                let mutated = Self.mutate(ad, &rng)
                _ = BeaconDecoder.beacons(inAD: mutated)
                _ = BeaconDecoder.firstIdentifiedBeacon(inAD: mutated)
                _ = ADStructure.parse(mutated)
            }
        }
    }

    /// Feeding a packet one byte more at a time: the complete reports only ever grow, and the whole
    /// packet decodes without error.
    @Test func growingInputDeliversMonotonicallyMoreReports() {
        for vector in [HCIVectors.legacyThreeReports, HCIVectors.extendedThreeReports, HCIVectors.realIBeacon] {
            var previous = 0
            for length in 0...vector.count {
                let (reports, error) = Self.exercise(Array(vector.prefix(length)), .present)
                #expect(reports.count >= previous)
                previous = reports.count
                if length == vector.count { #expect(error == nil) }
            }
            #expect(previous == (try? HCIPacketDecoder.decode(vector).reports.count))
        }
    }

    @Test(arguments: CaptureFixtures.all.map(\.capture))
    func capturePrefixesYieldEarlierPacketsOrAnOffsetError(capture: String) throws {
        let bytes = try CaptureFixtures.bytes(capture)
        let full = try CaptureFixtures.packets(capture)
        let isText = (try? CaptureReader(bytes).format) == .hcidumpText
        let lengths =
            Array(0..<min(bytes.count, 400))
            + Array(stride(from: 400, to: bytes.count, by: max(1009, bytes.count / 60)))
        for length in lengths {
            let (packets, error) = CaptureReader.readAll(Array(bytes.prefix(length)))
            if let error, error.offset > length { Issue.record("\(error) beyond \(length)") }
            // Binary containers: whole records only. Text: the last line may have been cut.
            let settled = isText ? packets.dropLast() : packets[...]
            if Array(settled) != Array(full.prefix(settled.count)) { Issue.record("prefix \(length) differs") }
        }
    }

    @Test(arguments: CaptureFixtures.all.map(\.capture))
    func mutatedCapturesNeverTrap(capture: String) throws {
        var rng = SplitMix64(state: 7)
        let bytes = Array(try CaptureFixtures.bytes(capture).prefix(3000))
        for _ in 0..<200 {
            var mutated = bytes
            for _ in 0..<3 {
                mutated[Int.random(in: 0..<mutated.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            let (packets, error) = CaptureReader.readAll(mutated)
            if let error { #expect(error.offset <= mutated.count) }
            for p in packets { Self.exercise(p.bytes, .present) }
        }
    }
}
