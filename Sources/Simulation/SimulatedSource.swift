import AgentCore
import BeaconWire
import Glibc
import Platform
import Synchronization
import Vocabulary

/// A few iBeacons that walk in and out of range, as real HCI bytes: each advertisement is an LE
/// Advertising Report event (Core Spec Vol 4, Part E, §7.7.65.2; subevent 0x02, ADV_NONCONN_IND)
/// carrying Flags and Apple manufacturer data with the iBeacon layout, so the demo exercises the
/// real decoder. About 10 advertisements per second per beacon in range, timestamped with the
/// steady wall clock (`SteadyWallClock`); RSSI follows a log-distance path loss (exponent 2) plus Gaussian noise (σ = 3 dB)
/// from a seeded generator, so a seed gives the same walk.
package final class SimulatedSource: PacketSource {
    /// The sample UUID of the iBeacon documentation; major 1, minors 1…N.
    package static let uuid = BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!
    package static let measuredPower: Int8 = -59

    package let beacons: Int
    package let seed: UInt64
    private let stopped = StopSignal()

    package init(beacons: Int = 3, seed: UInt64 = 1) {
        self.beacons = max(1, min(beacons, 200))
        self.seed = seed
    }

    package func stop() { stopped.stop() }

    /// One walker: in range for a while (distance drifting), then away long enough to exit. The
    /// first stay is short (4–12 s), so a 20 s demo shows exits as well as enters.
    struct Walker {
        var minor: UInt16
        var present: Bool
        var phaseEnds: Double
        var distance: Double
        var heading: Double
    }

    package func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws {
        var random = SplitMix64(seed: seed)
        let start = SteadyWallClock.seconds()
        var walkers = (0..<beacons).map { i in
            Walker(
                minor: UInt16(i + 1), present: i % 3 != 2,
                phaseEnds: start + Double.random(in: 4...12, using: &random),
                distance: Double.random(in: 0.5...6, using: &random), heading: 1)
        }
        let tick = 0.1
        var next = SteadyWallClock.seconds()
        var batch: [CapturedPacket] = []
        while !stopped.isStopped {
            let now = SteadyWallClock.seconds()
            for i in walkers.indices {
                step(&walkers[i], now: now, tick: tick, random: &random)
                guard walkers[i].present, Double.random(in: 0..<1, using: &random) > 0.1 else { continue }
                let noise = Self.gaussian(&random) * 3
                let rssi = Double(Self.measuredPower) - 20 * log10(max(walkers[i].distance, 0.1)) + noise
                let packet = CapturedPacket(
                    timestamp: Timestamp(microseconds: Int64(now * 1_000_000)),
                    bytes: Self.advertisingReport(
                        address: [0xC0, 0xFF, 0xEE, 0x00, 0x00, UInt8(truncatingIfNeeded: walkers[i].minor)],
                        major: 1, minor: walkers[i].minor, rssi: Int8(max(-127, min(20, rssi.rounded())))))
                batch.append(packet)
            }
            // One hand-over per tick.
            if !batch.isEmpty { deliver(.packets(batch)) }
            batch.removeAll(keepingCapacity: true)
            next += tick
            let wait = next - SteadyWallClock.seconds()
            if wait > 0 { stopped.sleep(seconds: wait) } else { next = SteadyWallClock.seconds() }
        }
        deliver(.end)
    }

    private func step(_ w: inout Walker, now: Double, tick: Double, random: inout SplitMix64) {
        if now >= w.phaseEnds {
            w.present.toggle()
            // Away longer than the default 10 s exit timeout, so exits happen.
            w.phaseEnds =
                now
                + (w.present ? Double.random(in: 20...45, using: &random) : Double.random(in: 14...25, using: &random))
            w.distance = Double.random(in: 3...8, using: &random)
        }
        w.distance += w.heading * Double.random(in: 0...0.15, using: &random)
        if w.distance < 0.3 || w.distance > 10 || Double.random(in: 0..<1, using: &random) < 0.01 {
            w.heading = -w.heading
        }
        w.distance = min(max(w.distance, 0.3), 10)
    }

    /// Box–Muller, standard normal.
    static func gaussian(_ random: inout SplitMix64) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &random)
        let u2 = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// An H4 HCI event packet: LE Meta (0x3E), LE Advertising Report (0x02), one ADV_NONCONN_IND
    /// report from a public `address` (given MSB first, sent little-endian) with an iBeacon.
    package static func advertisingReport(address: [UInt8], major: UInt16, minor: UInt16, rssi: Int8) -> [UInt8] {
        var ad: [UInt8] = [0x02, 0x01, 0x06]  // Flags: LE General Discoverable, BR/EDR not supported
        ad += [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]  // Apple (0x004C, little-endian), iBeacon type and length
        ad += uuid.bytes
        ad += [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF)]  // big-endian
        ad.append(UInt8(bitPattern: measuredPower))
        var parameters: [UInt8] = [0x02, 0x01, 0x03, 0x00]  // subevent, 1 report, ADV_NONCONN_IND, public
        parameters += address.reversed()
        parameters.append(UInt8(ad.count))
        parameters += ad
        parameters.append(UInt8(bitPattern: rssi))
        return [0x04, 0x3E, UInt8(parameters.count)] + parameters
    }
}
