import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Testing

/// A foreign node with a `position` is calibrated as a gateway is (docs/locator.md, "Foreign
/// receivers"): its readings of a placed gateway's advertisement measure its offset.
@Suite struct ForeignNodeCalibrationTests {
    /// Gateway B at the origin advertises this iBeacon at −59 dBm (its retained announcement's AD data).
    static let advertised = Fixtures.beacon(9, major: 9)
    static let announcement =
        #"{"x":0,"y":0,"z":0,"data":"0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000090009c5"}"#
    static let topic = "espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-9-9/kitchen"

    /// The kitchen's node hears B at −80 dBm, 5 m away: the prior exponent (2) expects −59 − 20·log10 5
    /// = −73.0 dBm, so its offset is +7.0 dB; unplaced, it gets none.
    @Test(arguments: [true, false]) func aPlacedNodeHearingAGatewayGetsItsOffset(placed: Bool) throws {
        var settings = LocatorSettings()
        settings.foreignSources = [
            ForeignSource(
                format: .espresense,
                nodes: [
                    "kitchen": .init(
                        gateway: "esp-kitchen", room: "kitchen", position: placed ? SitePosition(x: 3, y: 4) : nil)
                ])
        ]
        var locator = Locator(settings: settings)
        locator.calibrationTopic = "beacons/locators/L/calibration"
        let announced = locator.handle(topic: "beacons/gateways/B/advertising", payload: Self.announcement)
        #expect(announced)
        var reader = ForeignSourceReader(sources: settings.foreignSources)
        let payload =
            #"{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-9-9","rssi@1m":-59,"rssi":-80,"distance":11.2}"#
        for s in 0..<5 {
            guard
                case .reading(let r, let device)? = reader.read(
                    topic: Self.topic, payload: Array(payload.utf8), at: Fixtures.at(Double(s)))
            else {
                Issue.record("not a reading")
                return
            }
            locator.observe(r, device: device)
        }
        var out: [OutboundMessage] = []
        locator.advance(to: Fixtures.at(6), into: &out)
        if placed {
            let offset = try #require(locator.site.calibrator.offset(of: "esp-kitchen"))
            #expect(abs(offset - 7.0) < 0.05, "\(offset)")
            #expect(
                out.contains { $0.topic.hasSuffix("/calibration") && $0.payload.text.contains(#""esp-kitchen":7"#) })
        } else {
            #expect(locator.site.calibrator.offset(of: "esp-kitchen") == nil)
        }
        // The gateway's advertisement is no beacon to place.
        #expect(locator.location(of: Self.advertised) == nil)
    }
}
