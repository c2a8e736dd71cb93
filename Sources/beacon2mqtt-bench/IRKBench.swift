import BeaconCore
import BeaconWire
import Foundation
import GatewayPipeline
import IdentityCrypto
import MessageContract
import Settings
import Vocabulary

/// Section `irk`: devices by IRK (issue #19). 50 configured IRK devices; the per-report cost of
/// the pipeline for reports that are not beacon frames:
/// - `flood`: 1M reports, each from a fresh random resolvable private address no key resolves —
///   every one costs `ah` under all 50 keys, is counted and dropped; resident memory is sampled
///   before and after (it must not grow with the flood);
/// - `resolved, cached`: a configured phone from one address (the address → device cache);
/// - `resolved, no cache`: configured phones each report from a new address (one resolution per
///   report, on average half the keys).
struct IRKBench {
    var options: BenchOptions

    static let keyCount = 50
    static let floodReports = 1_000_000

    func configuration(_ keys: [IdentityResolvingKey]) -> Configuration {
        var c = Configuration()
        c.gateway.id = "bench"
        c.devices = keys.enumerated().map { i, k in DeviceSettings(name: "phone-\(i)", identification: .irk(k)) }
        c.ranging.publish.onProximityChange = false
        c.ranging.publish.accuracyDeadband = 0
        c.ranging.publish.heartbeat = .zero
        return c
    }

    /// One report event from `address` (random address type) with phone-like AD data, no beacon frame.
    static func packet(_ address: BluetoothAddress, at t: Timestamp) -> CapturedPacket {
        let ad: [UInt8] = [0x02, 0x01, 0x1A, 0x07, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, 0x00]
        return CapturedPacket(
            timestamp: t,
            bytes: AdvertisingReportEvent.bytes(address: address, addressType: 1, eventType: 0, data: ad, rssi: -70))
    }

    /// Writes `address` into the report's address field (H4 offset 7, little-endian) in place.
    static func setAddress(_ packet: inout CapturedPacket, _ address: BluetoothAddress) {
        for k in 0..<6 { packet.bytes[7 + k] = UInt8(truncatingIfNeeded: address.rawValue >> UInt64(8 * k)) }
    }

    static func residentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return -1 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
    }

    func run(into report: inout BenchReport) throws(BenchFailure) {
        var random = SystemRandomNumberGenerator()
        let keys = (0..<Self.keyCount).map { _ in ResolvablePrivateAddress.randomKey() }
        let start = Timestamp(microseconds: 1_767_225_600_000_000)

        if options.includes("flood") {
            var pipeline = PipelinePath(
                configuration: configuration(keys), identityResolver: AESIdentityResolver.factory)
            var packet = Self.packet(BluetoothAddress(rawValue: 0x40_0000_0000_00), at: start)
            // Warm-up, then RSS, then the flood: a fresh RPA-form address per report (random 46 bits).
            func flood(_ count: Int, from first: Int) -> UInt64 {
                for i in first..<(first + count) {
                    Self.setAddress(
                        &packet, BluetoothAddress(rawValue: 0x40_0000_0000_00 | random.next() & 0x3F_FFFF_FFFF_FF))
                    packet.timestamp = start + TimeSpan(microseconds: Int64(i) * 10)
                    pipeline.ingest(packet)
                }
                return pipeline.checksum
            }
            _ = flood(10_000, from: 0)
            let before = Self.residentKiB()
            // Thread CPU time, as the single-core sections measure.
            let began = BenchClock.threadCPUNow()
            _ = flood(Self.floodReports, from: 10_000)
            let seconds = Double(BenchClock.threadCPUNow() - began) / 1e9
            let after = Self.residentKiB()
            let c = pipeline.counters
            // The hash is 24 bits: a random address matches one of 50 keys with p = 50 / 2^24, so about
            // 3 of 1M strangers resolve by chance (and are taken for that phone, as by any resolver).
            guard c.unresolvedPrivateAddresses + c.devices == Self.floodReports + 10_000, c.devices < 30 else {
                throw BenchFailure("irk flood: \(c.unresolvedPrivateAddresses) unresolved, \(c.devices) resolved")
            }
            var result = BenchResult(section: "irk", name: "flood: 1M random RPAs, 50 IRKs")
            result.add("ns_per_report", seconds * 1e9 / Double(Self.floodReports), "ns/report", decimals: 0)
            result.add("rss_growth_kib", Double(after - before), "KiB RSS growth")
            result.add("rss_kib", Double(after), "KiB RSS")
            result.add("chance_matches", Double(c.devices), "resolved by chance")
            report.add(result)
        }

        // Configured phones: 4,096 addresses, made up front (each one `ah`), round-robin over the keys.
        let addresses = (0..<4096).map { i in ResolvablePrivateAddress.random(for: keys[i % Self.keyCount]) }
        for cached in [true, false] {
            let name = cached ? "resolved, cached (1 address)" : "resolved, no cache (new address each report)"
            guard options.includes(cached ? "cached" : "no cache") else { continue }
            var pipeline = PipelinePath(
                configuration: configuration(keys), identityResolver: AESIdentityResolver.factory)
            var packet = Self.packet(addresses[0], at: start)
            var n = 0
            let outcome = Repetitions(minimumSeconds: options.minimumSeconds, count: options.repetitions).run {
                for _ in 0..<1_000 {
                    if !cached { Self.setAddress(&packet, addresses[n % addresses.count]) }
                    packet.timestamp = start + TimeSpan(microseconds: Int64(n) * 10)
                    pipeline.ingest(packet)
                    n += 1
                }
                return pipeline.checksum
            }
            guard pipeline.counters.devices == n, pipeline.counters.unresolvedPrivateAddresses == 0 else {
                throw BenchFailure("irk \(name): \(pipeline.counters.devices) of \(n) reports resolved")
            }
            var result = BenchResult(section: "irk", name: name)
            result.add(
                "ns_per_report", outcome.median * 1e9 / Double(1_000 * outcome.iterations), "ns/report", decimals: 0)
            report.add(result)
        }
    }
}
