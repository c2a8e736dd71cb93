import AgentCore
import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Testing
import Vocabulary

/// `gateway.position` on the retained `<base>/gateways/<gw>/advertising` announcement: beside the
/// advertised beacon, or alone (`state` `off`) on a gateway that only listens, and again when a
/// reload moves the gateway (docs/locator.md, "Calibrating a site").
@Suite struct AgentCorePositionTests {
    static let topic = "b/gateways/gw/advertising"

    static func payloads(_ h: CoreHarness) -> [String] {
        h.broker.published.filter { $0.topic == Self.topic }.map(\.payload)
    }

    @Test func aListeningGatewayAnnouncesWhereItStands() throws {
        var h = CoreHarness(announcesAdvertising: true) { $0.gateway.position = SitePosition(x: 1.5, y: 2, z: 0.25) }
        h.connectAndRestore()
        #expect(Self.payloads(h) == [#"{"x":1.5,"y":2,"z":0.25,"scan_mode":"passive","state":"off"}"#])
        var moved = h.core.configuration
        moved.gateway.position = SitePosition(x: 3, y: 2)
        h.core.reloaded(.success(moved))
        h.tick()
        #expect(Self.payloads(h).last == #"{"x":3,"y":2,"z":0,"scan_mode":"passive","state":"off"}"#)
        moved.gateway.position = nil
        h.core.reloaded(.success(moved))
        h.tick()
        #expect(Self.payloads(h).last == "")
    }

    @Test func anAdvertisingGatewayAnnouncesItsPositionWithItsBeacon() throws {
        var h = CoreHarness(announcesAdvertising: true) {
            $0.gateway.position = SitePosition(x: 4, y: 0)
            $0.bluetooth.advertise = AdvertiseSettings(
                beacon: .iBeacon(IBeacon(uuid: BeaconID128(high: 1, low: 2), major: 3, minor: 14, measuredPower: -62)))
        }
        h.connectAndRestore()
        let payload = try #require(Self.payloads(h).last)
        #expect(payload.contains(#""interval_ms":100,"x":4,"y":0,"z":0,"address":"public""#))
        // What a locator reads of it: the gateway's beacon, its power and its place.
        var calibrator = SiteCalibrator()
        calibrator.announce(gateway: "gw", payload: payload)
        #expect(calibrator.isGateway(.uuid(BeaconID128(high: 1, low: 2), major: 3, minor: 14)))
        #expect(!calibrator.isGateway(.uuid(BeaconID128(high: 1, low: 2), major: 3, minor: 15)))
    }
}
