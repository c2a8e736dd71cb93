import AgentCore
import BeaconCore
import BeaconWire
import Testing

/// The retained `<base>/gateways/<gw>/advertising` announcement: on every connect, and on a reload
/// that changes what is advertised; only when the source advertises (the live adapter).
@Suite struct AgentCoreAdvertisingTests {
    static let topic = "b/gateways/gw/advertising"
    static let settings = AdvertiseSettings(
        beacon: .iBeacon(IBeacon(uuid: BeaconID128(high: 1, low: 2), major: 3, minor: 14, measuredPower: -59)))

    @Test func announcedOnConnectAndClearedWhenAReloadTurnsItOff() throws {
        var h = CoreHarness(announcesAdvertising: true) { $0.advertise = Self.settings }
        h.connectAndRestore()
        let first = try #require(h.broker.published.first { $0.topic == Self.topic })
        #expect(first.payload.contains(#""major":3"#) && first.payload.contains(#""minor":14"#))
        #expect(first.payload.contains(#""interval_ms":100"#))
        var off = h.core.configuration
        off.advertise = nil
        h.core.reloaded(.success(off))
        h.tick()
        #expect(h.broker.published.filter { $0.topic == Self.topic }.map(\.payload).last == "")
        // A reload that changes nothing of it announces nothing.
        let count = h.broker.published.filter { $0.topic == Self.topic }.count
        h.core.reloaded(.success(off))
        h.tick()
        #expect(h.broker.published.filter { $0.topic == Self.topic }.count == count)
    }

    @Test func aSourceThatDoesNotAdvertiseAnnouncesNothing() {
        var h = CoreHarness { $0.advertise = Self.settings }
        h.connectAndRestore()
        #expect(!h.broker.topics.contains(Self.topic))
    }
}
