import BeaconCore
import BeaconWire
import Vocabulary

/// The locator's self-calibration (docs/locator.md, "Calibrating a site"): gateways with a
/// `gateway.position` announce it, and what they advertise, on their retained
/// `<base>/gateways/<gw>/advertising`; when one gateway hears another's advertisement, the distance
/// between them is known, so the reading measures the receiver's offset and the site's path loss.
/// Each pair keeps its newest `keep` filtered RSSI readings; the fit (`PathLossCalibration`) takes
/// each pair's median, so memory is bounded by the pairs and one reflection moves nothing.
package struct SiteCalibrator: Sendable, Equatable {
    /// A gateway's advertisement as its announcement describes it.
    struct Transmitter: Sendable, Equatable {
        var gateway: String
        var measuredPower: Double
    }

    private struct Pair: Hashable, Sendable {
        var receiver: String
        var transmitter: String
    }

    /// Readings kept per pair of gateways.
    static let keep = 16

    private var transmitters: [BeaconIdentity: Transmitter] = [:]
    private var positions: [String: SitePosition] = [:]
    /// Receivers placed by the configuration (foreign nodes' `position`), which announce nothing.
    private var placed: [String: SitePosition] = [:]
    private var heard: [Pair: [Double]] = [:]
    private var changed = false
    /// The latest fit; nil before any pair of gateways at known positions heard each other.
    package private(set) var fit: PathLossCalibration.Fit?

    package init() {}

    /// A gateway's retained advertising announcement: its position and the beacon it advertises.
    /// An empty or unreadable payload forgets the gateway as a transmitter and as a place.
    package mutating func announce(gateway: String, payload: String) {
        transmitters = transmitters.filter { $0.value.gateway != gateway }
        positions[gateway] = nil
        changed = true
        guard let o = try? JSONObject(payload) else { return }
        if let x = o.number("x"), let y = o.number("y"), x.isFinite, y.isFinite {
            let z = o.number("z") ?? 0
            positions[gateway] = SitePosition(x: x, y: y, z: z.isFinite ? z : 0)
        }
        if let hex = o.string("data"), let data = Hex.bytes(hex),
            let beacon = BeaconDecoder.beacons(inAD: data).first, let id = beacon.identity,
            let power = beacon.measuredPowerAt1m
        {
            transmitters[id] = Transmitter(gateway: gateway, measuredPower: Double(power))
        }
    }

    /// Receivers at positions the configuration gives (`locator.foreign_sources[].nodes[].position`),
    /// by gateway id; an announced position comes first.
    package mutating func place(_ receivers: [String: SitePosition]) {
        guard receivers != placed else { return }
        placed = receivers
        changed = true
    }

    /// Whether `beacon` is a gateway's advertisement.
    package func isGateway(_ beacon: BeaconIdentity) -> Bool { transmitters[beacon] != nil }

    /// One proximity reading; kept when it is one gateway hearing another's advertisement.
    package mutating func observe(_ r: LocatorReading) {
        guard let t = transmitters[r.beacon], t.gateway != r.gateway, let rssi = r.filteredRSSI, rssi.isFinite
        else { return }
        let pair = Pair(receiver: r.gateway, transmitter: t.gateway)
        heard[pair, default: []].append(rssi)
        if heard[pair]!.count > Self.keep { heard[pair]!.removeFirst() }
        changed = true
    }

    /// The observations the fit takes: each pair at known positions, at its median RSSI.
    var observations: [PathLossCalibration.Observation] {
        heard.keys.sorted { ($0.receiver, $0.transmitter) < ($1.receiver, $1.transmitter) }.compactMap { pair in
            guard let a = positions[pair.receiver] ?? placed[pair.receiver], let b = positions[pair.transmitter],
                let power = transmitters.values.first(where: { $0.gateway == pair.transmitter })?.measuredPower
            else { return nil }
            return .init(
                receiver: pair.receiver, distance: a.distance(to: b),
                rssi: PathLossCalibration.median(heard[pair]!), measuredPower: power)
        }
    }

    /// Fits again if anything changed; true when the published fit (rounded to 0.1 dB) changed.
    package mutating func refit() -> Bool {
        guard changed else { return false }
        changed = false
        let next = PathLossCalibration.fit(observations)
        guard next.map(Self.rounded) != fit.map(Self.rounded) else { return false }
        fit = next
        return true
    }

    /// The fitted offset of `gateway` (dB to add to its RSSI); nil when it was not fitted.
    package func offset(of gateway: String) -> Double? { fit?.offsets[gateway] }

    private static func rounded(_ f: PathLossCalibration.Fit) -> [Double] {
        let tenths = { (v: Double) in (v * 10).rounded() }
        return [tenths(f.exponent), f.exponentFitted ? 1 : 0]
            + f.offsets.keys.sorted().map { tenths(f.offsets[$0]!) }
    }

    /// The retained `<base>/locators/<id>/calibration` payload:
    /// `{"offsets":{gw:dB},"path_loss_exponent","exponent_fitted","residual_db","pairs"}`.
    package func payload() -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("offsets")
        w.beginObject()
        for (gateway, offset) in (fit?.offsets ?? [:]).sorted(by: { $0.key < $1.key }) {
            w.field(gateway, offset, decimals: 1)
        }
        w.endObject()
        w.field("path_loss_exponent", fit?.exponent, decimals: 2)
        w.field("exponent_fitted", fit?.exponentFitted ?? false)
        w.field("residual_db", fit?.residual, decimals: 1)
        w.field("pairs", fit?.observations ?? 0)
        w.endObject()
        return w.text
    }
}
