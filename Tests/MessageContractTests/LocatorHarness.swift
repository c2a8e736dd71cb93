import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Vocabulary

/// Drives a `Locator` with readings at seconds after `Fixtures.t0` and collects its output.
/// Gateways: A (floor 1, hall), B and D (floor 2, office), C (floor 2, lab).
struct LocatorHarness {
    static let place: [String: (floor: String, room: String)] = [
        "A": ("1", "hall"), "B": ("2", "office"), "C": ("2", "lab"), "D": ("2", "office"),
    ]
    static let beacon = Fixtures.beacon(1)
    static let locationTopic = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/location"
    static let eventTopic = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/event"

    var locator: Locator
    var out: [OutboundMessage] = []

    init(_ settings: LocatorSettings = LocatorSettings(), distance: DistanceSettings = DistanceSettings()) {
        locator = Locator(settings: settings, distance: distance)
    }

    static func reading(
        _ gw: String, _ metres: Double, at seconds: Double, beacon: BeaconIdentity = beacon, rssi: Double? = nil
    ) -> LocatorReading {
        LocatorReading(
            beacon: beacon, gateway: gw, floor: place[gw]?.floor, room: place[gw]?.room, filteredRSSI: rssi,
            measuredPower: -59, accuracy: metres, timestamp: Fixtures.at(seconds))
    }

    mutating func see(_ gw: String, _ metres: Double, at seconds: Double) {
        locator.observe(Self.reading(gw, metres, at: seconds))
    }

    /// Advances the clock; returns the messages produced.
    @discardableResult
    mutating func advance(_ seconds: Double) -> [OutboundMessage] {
        var o: [OutboundMessage] = []
        locator.advance(to: Fixtures.at(seconds), into: &o)
        out += o
        return o
    }

    /// The gateways named by the location events so far ("-" for not_home), in order.
    var owners: [String] { Self.owners(out) }

    static func owners(_ messages: [OutboundMessage]) -> [String] {
        messages.filter { $0.topic.hasSuffix("/event") }.map { m in
            guard let r = m.payload.text.firstRange(of: #""gateway":""#) else { return "-" }
            return String(m.payload.text[r.upperBound...].prefix { $0 != "\"" })
        }
    }

    /// Time of each location event, seconds after t0.
    var eventTimes: [Double] {
        out.filter { $0.topic.hasSuffix("/event") }.compactMap { m in
            guard let r = m.payload.text.firstRange(of: #""timestamp":""#) else { return nil }
            let text = String(m.payload.text[r.upperBound...].prefix { $0 != "\"" })
            return RetainedAttributes.timestamp(rfc3339: text).map { ($0 - Fixtures.t0).seconds }
        }
    }
}
