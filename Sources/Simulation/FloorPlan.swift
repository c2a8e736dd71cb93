import BeaconWire
import Glibc

/// A building for the multi-gateway simulator: gateways at coordinates on floors, and beacons that
/// walk between timed waypoints. One seed gives one scenario, so every gateway process (and every
/// test) sees the same walk with its own, reproducible noise.
///
/// The file is YAML read like the configuration (`FloorPlan.parse`, with the commands): top-level
/// scalars and two lists, `gateways:` and `waypoints:`. Example: etc/floor-plan.yaml.
package struct FloorPlan: Sendable, Equatable {
    package struct Gateway: Sendable, Equatable {
        package var id: String
        package var floor: String
        package var room: String
        package var x: Double
        package var y: Double
        package init(id: String, floor: String, room: String, x: Double, y: Double) {
            self.id = id
            self.floor = floor
            self.room = room
            self.x = x
            self.y = y
        }
    }

    /// Where beacon `minor` is at `at` seconds after the scenario starts; positions in between are
    /// interpolated linearly (the floor changes half-way, on the stairs).
    package struct Waypoint: Sendable, Equatable {
        package var minor: UInt16
        package var at: Double
        package var x: Double
        package var y: Double
        package var floor: String
        package init(minor: UInt16, at: Double, x: Double, y: Double, floor: String) {
            self.minor = minor
            self.at = at
            self.x = x
            self.y = y
            self.floor = floor
        }
    }

    package var seed: UInt64 = 1
    /// iBeacon UUID of every simulated beacon (major 1, minor from the waypoints).
    package var uuid = BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!
    package var major: UInt16 = 1
    /// RSSI at 1 m, advertised as the iBeacon measured power.
    package var measuredPower: Int = -59
    /// Log-distance path-loss exponent n (indoor 2…4; ESPresense's default absorption 2.7).
    package var pathLossExponent: Double = 2.7
    /// Standard deviation of the Gaussian RSSI noise, dB.
    package var noiseDB: Double = 4
    /// Loss per floor between beacon and gateway, dB (ITU-R P.1238 floor penetration, ~15 dB for one floor).
    package var floorAttenuationDB: Double = 15
    package var floorHeight: Double = 3
    /// Advertisements weaker than this are not received.
    package var sensitivityDBm: Double = -100
    /// Seconds between advertisements of one beacon.
    package var advertInterval: Double = 0.2
    /// Fraction of advertisements a gateway misses.
    package var loss: Double = 0.1
    package var gateways: [Gateway] = []
    package var waypoints: [Waypoint] = []

    package init() {}

    /// Beacon minors in the plan, ascending.
    package var minors: [UInt16] { Array(Set(waypoints.map(\.minor))).sorted() }

    /// Seconds until the last waypoint.
    package var duration: Double { waypoints.map(\.at).max() ?? 0 }

    /// The storey of a floor name: its number when it is an integer, else its rank among the
    /// gateways' floors in file order.
    package func level(_ floor: String) -> Int {
        if let n = Int(floor) { return n }
        var seen: [String] = []
        for g in gateways where !seen.contains(g.floor) { seen.append(g.floor) }
        return seen.firstIndex(of: floor) ?? 0
    }
}
