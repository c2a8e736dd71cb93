import BeaconCore
import BeaconWire
import Glibc

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

    package init(plan: FloorPlan, gateway id: String) throws(FloorPlanError) {
        guard let g = plan.gateways.first(where: { $0.id == id }) else {
            throw FloorPlanError(
                "no gateway '\(id)' in the floor plan (have \(plan.gateways.map(\.id).joined(separator: ", ")))")
        }
        self.plan = plan
        gateway = g
        // FNV-1a of the id: a stable key (Swift's Hasher is seeded per process).
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in id.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        gatewayKey = h
    }

    /// Beacon `minor`'s position at `t`: (x, y, storey).
    package func position(minor: UInt16, at t: Double) -> (x: Double, y: Double, level: Int)? {
        let path = plan.waypoints.filter { $0.minor == minor }
        guard let first = path.first else { return nil }
        guard let next = path.firstIndex(where: { $0.at > t }) else {
            let last = path[path.count - 1]
            return (last.x, last.y, plan.level(last.floor))
        }
        if next == 0 { return (first.x, first.y, plan.level(first.floor)) }
        let a = path[next - 1]
        let b = path[next]
        let f = (t - a.at) / (b.at - a.at)
        return (a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, plan.level(f < 0.5 ? a.floor : b.floor))
    }

    /// RSSI without noise, dBm.
    package func meanRSSI(minor: UInt16, at t: Double) -> Double? {
        guard let p = position(minor: minor, at: t) else { return nil }
        let storeys = abs(p.level - plan.level(gateway.floor))
        let dz = Double(storeys) * plan.floorHeight
        let dx = p.x - gateway.x
        let dy = p.y - gateway.y
        let d = max((dx * dx + dy * dy + dz * dz).squareRoot(), 0.1)
        return Double(plan.measuredPower) - 10 * plan.pathLossExponent * log10(d)
            - Double(storeys) * plan.floorAttenuationDB
    }

    /// Adverts heard in [from, to) seconds after the start, in time order.
    package func adverts(from: Double, to: Double) -> [Advert] {
        var out: [Advert] = []
        let minors = plan.minors
        guard to > from else { return out }
        var k = Int64((max(from, 0) / plan.advertInterval).rounded(.down))
        while true {
            let base = Double(k) * plan.advertInterval
            if base >= to { break }
            for (i, minor) in minors.enumerated() {
                // Each beacon advertises with its own phase so adverts interleave.
                let t = base + plan.advertInterval * Double(i) / Double(minors.count)
                guard t >= from, t < to, let mean = meanRSSI(minor: minor, at: t) else { continue }
                var random = SplitMix64(keys: plan.seed, gatewayKey, UInt64(minor), UInt64(bitPattern: k))
                if Double.random(in: 0..<1, using: &random) < plan.loss { continue }
                let rssi = mean + plan.noiseDB * SimulatedSource.gaussian(&random)
                guard rssi >= plan.sensitivityDBm else { continue }
                out.append(Advert(offset: t, minor: minor, rssi: Int8(max(-127, min(20, rssi.rounded())))))
            }
            k += 1
        }
        return out.sorted { ($0.offset, $0.minor) < ($1.offset, $1.minor) }
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
