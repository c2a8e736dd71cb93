import BeaconCore
import BeaconWire
import Glibc
import Vocabulary

/// What one gateway of a floor plan receives: every `advert_interval` each beacon advertises, and
/// the gateway hears it with RSSI = measured power − 10·n·log10(d) − floors crossed · attenuation +
/// Gaussian noise, unless it is lost or below the sensitivity.
///
/// Noise and loss come from a counter-based generator keyed by (seed, gateway, beacon, advert
/// number), so each gateway process computes its own share of the one scenario without talking to
/// the others, and any time window can be generated on its own.
package struct FloorPlanSimulator: Sendable {
    package struct Advert: Sendable, Equatable {
        /// Seconds after the scenario start.
        package var offset: Double
        package var minor: UInt16
        package var rssi: Int8
    }

    package let plan: FloorPlan
    package let gateway: FloorPlan.Gateway
    private let gatewayKey: UInt64
    private let gatewayLevel: Int
    private let paths: FloorPlanPaths

    package init(plan: FloorPlan, gateway id: String) throws(FloorPlanError) {
        guard let g = plan.gateways.first(where: { $0.id == id }) else {
            throw FloorPlanError(
                "no gateway '\(id)' in the floor plan (have \(plan.gateways.map(\.id).joined(separator: ", ")))")
        }
        self.init(plan: plan, gateway: g, paths: FloorPlanPaths(plan))
    }

    /// For `FloorPlanCampus`, which shares one index of the walks among all the gateways.
    init(plan: FloorPlan, gateway: FloorPlan.Gateway, paths: FloorPlanPaths) {
        self.plan = plan
        self.gateway = gateway
        self.paths = paths
        gatewayKey = Self.key(gateway.id)
        gatewayLevel = plan.level(gateway.floor)
    }

    /// FNV-1a of a gateway id: a stable key for its noise (Swift's Hasher is seeded per process).
    static func key(_ id: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in id.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// Beacon `minor`'s position at `t`: (x, y, storey).
    package func position(minor: UInt16, at t: Double) -> (x: Double, y: Double, level: Int)? {
        guard let i = paths.minors.firstIndex(of: minor) else { return nil }
        return paths.position(beacon: i, at: t)
    }

    /// RSSI without noise, dBm.
    package func meanRSSI(minor: UInt16, at t: Double) -> Double? {
        position(minor: minor, at: t).map(meanRSSI(from:))
    }

    /// RSSI without noise from a beacon at `p`, dBm.
    func meanRSSI(from p: (x: Double, y: Double, level: Int)) -> Double {
        let storeys = abs(p.level - gatewayLevel)
        let dz = Double(storeys) * plan.floorHeight
        let dx = p.x - gateway.x
        let dy = p.y - gateway.y
        let d = max((dx * dx + dy * dy + dz * dz).squareRoot(), 0.1)
        return Double(plan.measuredPower) - 10 * plan.pathLossExponent * log10(d)
            - Double(storeys) * plan.floorAttenuationDB
    }

    /// Whether this gateway hears advert `k` of `minor` (sent at `t`, arriving at `mean` dBm before
    /// noise), and at what RSSI: lost with probability `loss`, else mean + Gaussian noise, unless
    /// below the sensitivity.
    func hear(minor: UInt16, advert k: Int64, at t: Double, mean: Double) -> Advert? {
        var random = SplitMix64(keys: plan.seed, gatewayKey, UInt64(minor), UInt64(bitPattern: k))
        if Double.random(in: 0..<1, using: &random) < plan.loss { return nil }
        let rssi = mean + plan.noiseDB * SimulatedSource.gaussian(&random)
        guard rssi >= plan.sensitivityDBm else { return nil }
        return Advert(offset: t, minor: minor, rssi: Int8(max(-127, min(20, rssi.rounded()))))
    }

    /// Adverts heard in [from, to) seconds after the start, in time order.
    package func adverts(from: Double, to: Double) -> [Advert] {
        var out: [Advert] = []
        paths.forEachAdvert(from: from, to: to, interval: plan.advertInterval) { _, minor, k, t, p in
            if let advert = hear(minor: minor, advert: k, at: t, mean: meanRSSI(from: p)) { out.append(advert) }
        }
        return out
    }

    /// The adverts as sightings, with the scenario starting at `start`.
    package func sightings(from: Double, to: Double, start: Timestamp) -> [BeaconSighting] {
        adverts(from: from, to: to).map { a in
            BeaconSighting(
                identity: .uuid(plan.uuid, major: plan.major, minor: a.minor), kind: .iBeacon,
                address: BluetoothAddress(rawValue: 0xC0FF_EE00_0000 | UInt64(a.minor)),
                rssi: a.rssi, measuredPower: Int8(clamping: plan.measuredPower),
                timestamp: start + TimeSpan(microseconds: Int64((a.offset * 1_000_000).rounded())))
        }
    }
}

extension SplitMix64 {
    /// A generator keyed by several values (seed, gateway, beacon, advert): each key is folded into
    /// the state through one SplitMix64 step, so nearby keys give unrelated streams.
    init(keys: UInt64...) {
        var folded: UInt64 = 0
        for k in keys {
            var mixer = SplitMix64(seed: folded ^ k)
            folded = mixer.next()
        }
        self.init(seed: folded)
    }
}
