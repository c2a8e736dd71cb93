import BeaconCore
import BeaconWire
import Vocabulary

/// A deterministic set of beacons spread over regions: region `r` is (AirLocate UUID, major `r`);
/// beacon `i` has major `i % regions`, minor `i / regions` and its own static random address, so
/// every beacon matches exactly one region and every region has beacons.
struct BeaconPopulation {
    var beacons: Int
    var regions: Int

    static let uuid = HCIEventBuilder.airLocate

    func region(_ r: Int) -> BeaconRegion {
        BeaconRegion(name: "r\(r)", uuid: Self.uuid, major: UInt16(r))
    }

    var allRegions: [BeaconRegion] { (0..<regions).map(region) }

    func major(_ i: Int) -> UInt16 { UInt16(truncatingIfNeeded: i % regions) }
    func minor(_ i: Int) -> UInt16 { UInt16(truncatingIfNeeded: i / regions) }
    /// Static random address (top two bits set, Core Spec Vol 6, Part B, §1.3.2.1).
    func address(_ i: Int) -> UInt64 { 0xC0_00_00_00_00_00 | UInt64(i) }

    /// One report of beacon `i`: a fixed distance per beacon (−50 … −84 dBm) with ±3 dB of
    /// deterministic jitter, like a stationary beacon, so filters have work to do.
    func report(_ i: Int, sequence: Int) -> [UInt8] {
        HCIEventBuilder.iBeacon(
            address: address(i), uuid: Self.uuid, major: major(i), minor: minor(i), measuredPower: -59,
            rssi: Int8(-50 - i % 35 + (i &+ sequence &* 5) % 7 - 3))
    }

    /// `count` reports from beacons visited in a scattered but complete order (a stride coprime
    /// with the population), at `rate` reports per simulated second from `start`.
    func stream(count: Int, rate: Double, start: Timestamp) -> [CapturedPacket] {
        let step = Self.coprimeStride(beacons)
        let interval = 1e6 / rate
        return (0..<count).map { n in
            let i = (n &* step) % beacons
            return CapturedPacket(
                timestamp: start + TimeSpan(microseconds: Int64((Double(n) * interval).rounded())),
                bytes: report(i, sequence: n / beacons))
        }
    }

    /// A stride near the golden ratio of `n` that shares no factor with it.
    static func coprimeStride(_ n: Int) -> Int {
        guard n > 2 else { return 1 }
        var s = max(1, Int(Double(n) * 0.618))
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        while gcd(s, n) != 1 { s += 1 }
        return s
    }
}
