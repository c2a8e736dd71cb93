import BeaconWire
import Simulation

/// The three decode streams of issue #5, each 4096 packets long: mixed (the real iBeacon and the
/// real iPhone advert alternating), iBeacon only, and 4096 distinct iBeacons (distinct address,
/// UUID, major, minor, power and RSSI, so no cache or branch history can help).
enum DecodeWorkloads {
    static let length = 4096

    static func all() -> [PacketStream] { [mixed(), iBeaconOnly(), distinct()] }

    static func mixed() -> PacketStream {
        let pair = [HCIEventBuilder.referenceIBeacon, HCIEventBuilder.referenceIPhone]
        return PacketStream(name: "mixed", packets: (0..<length).map { pair[$0 % 2] })
    }

    static func iBeaconOnly() -> PacketStream {
        PacketStream(name: "ibeacon", packets: Array(repeating: HCIEventBuilder.referenceIBeacon, count: length))
    }

    static func distinct() -> PacketStream {
        var rng = SplitMix64(seed: 4096)
        let packets = (0..<length).map { _ in
            HCIEventBuilder.iBeacon(
                address: rng.next(), uuid: BeaconID128(high: rng.next(), low: rng.next()),
                major: UInt16(truncatingIfNeeded: rng.next()), minor: UInt16(truncatingIfNeeded: rng.next()),
                measuredPower: Int8(-40 - Int(rng.next() % 40)), rssi: Int8(-30 - Int(rng.next() % 70)))
        }
        return PacketStream(name: "distinct4096", packets: packets)
    }

    /// Expected iBeacons per stream: every packet except the iPhone adverts of the mixed stream.
    static func expectedIBeacons(_ stream: PacketStream) -> Int {
        stream.name == "mixed" ? length / 2 : length
    }
}
