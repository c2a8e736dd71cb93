import AgentCore
import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Testing
import Vocabulary

/// The retained `<base>/gateways/<gw>/advertising` announcement: on every connect, on a reload or a
/// configuration layer that changes what is advertised (which also goes to the source as an
/// `advertise` action), and when the radio's state changes; only when the source advertises.
@Suite struct AgentCoreAdvertisingTests {
    static let topic = "b/gateways/gw/advertising"
    static let settings = AdvertiseSettings(
        beacon: .iBeacon(IBeacon(uuid: BeaconID128(high: 1, low: 2), major: 3, minor: 14, measuredPower: -59)))

    @Test func announcedOnConnectAndClearedWhenAReloadTurnsItOff() throws {
        var h = CoreHarness(announcesAdvertising: true) { $0.bluetooth.advertise = Self.settings }
        h.connectAndRestore()
        let first = try #require(h.broker.published.first { $0.topic == Self.topic })
        #expect(first.payload.contains(#""major":3"#) && first.payload.contains(#""minor":14"#))
        #expect(first.payload.contains(#""interval_ms":100"#))
        var off = h.core.configuration
        off.bluetooth.advertise = nil
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
        var h = CoreHarness { $0.bluetooth.advertise = Self.settings }
        h.connectAndRestore()
        #expect(!h.broker.topics.contains(Self.topic))
    }

    static func advertiseActions(_ h: CoreHarness) -> [AdvertiseSettings?] {
        h.actions.compactMap { if case .advertise(let settings) = $0 { settings } else { nil } }
    }

    static func payloads(_ h: CoreHarness) -> [String] {
        h.broker.published.filter { $0.topic == Self.topic }.map(\.payload)
    }

    /// The radio's state follows the source: starting, advertising (with the interval on air and
    /// the command set), refused with the reason; a repeated state is not published again.
    @Test func theRadiosStateIsPublishedWhenItChanges() throws {
        var h = CoreHarness(announcesAdvertising: true) { $0.bluetooth.advertise = Self.settings }
        h.connectAndRestore()
        #expect(Self.payloads(h).last?.contains(#""state":"starting""#) == true)
        h.handle(.source(.advertising(.starting)))
        #expect(Self.payloads(h).count == 1)
        h.handle(.source(.advertising(.advertising(.legacy, interval: .milliseconds(100)))))
        h.tick()
        let on = try #require(Self.payloads(h).last)
        #expect(on.contains(#""interval_ms":100,"#) && on.contains(#""state":"advertising","command_set":"legacy""#))
        #expect(!on.contains("reason"))
        // The refresh every 30 s reports the same state: nothing new.
        h.handle(.source(.advertising(.advertising(.legacy, interval: .milliseconds(100)))))
        #expect(Self.payloads(h).count == 2)
        h.handle(.source(.advertising(.refused("no combination"))))
        #expect(Self.payloads(h).last?.hasSuffix(#""state":"refused","reason":"no combination"}"#) == true)
        h.handle(.source(.advertising(.failed("LE Set Advertising Parameters failed"))))
        #expect(
            Self.payloads(h).last?.hasSuffix(#""state":"failed","reason":"LE Set Advertising Parameters failed"}"#)
                == true)
        // SIGTERM takes the advertisement off the air: the topic says so before the gateway goes.
        h.handle(.source(.health(.degraded(reason: "adapter hci1 is down"))))
        h.handle(.signal(.stop(name: "SIGTERM")))
        #expect(Self.payloads(h).last?.hasSuffix(#""state":"stopped"}"#) == true)
    }

    /// A lost adapter is `waiting` with the source's reason; back, it is the radio's state again.
    @Test func aLostAdapterIsWaitingWithTheReason() {
        var h = CoreHarness(announcesAdvertising: true) { $0.bluetooth.advertise = Self.settings }
        h.connectAndRestore()
        h.handle(.source(.advertising(.advertising(.extended, interval: .milliseconds(100)))))
        h.handle(.source(.health(.degraded(reason: "adapter hci1 is down"))))
        #expect(Self.payloads(h).last?.hasSuffix(#""state":"waiting","reason":"adapter hci1 is down"}"#) == true)
        h.handle(.source(.health(.healthy)))
        #expect(Self.payloads(h).last?.contains(#""state":"advertising","command_set":"extended""#) == true)
    }

    /// A pre-5.0 controller's raised interval is what the topic says is on air.
    @Test func theIntervalOnAirIsPublished() {
        var settings = Self.settings
        settings.interval = .milliseconds(50)
        var h = CoreHarness(announcesAdvertising: true) { $0.bluetooth.advertise = settings }
        h.connectAndRestore()
        #expect(Self.payloads(h).last?.contains(#""interval_ms":50,"#) == true)
        h.handle(.source(.advertising(.advertising(.legacy, interval: .milliseconds(100)))))
        #expect(Self.payloads(h).last?.contains(#""interval_ms":100,"#) == true)
    }

    /// SIGHUP's file and a configuration layer both send the new section to the source, once.
    @Test func aReloadAndALayerReachTheRadioThroughTheAdvertiseAction() {
        var h = CoreHarness(
            remote: RemoteConfiguration(topics: TopicTree(base: "b", gateway: "gw"), applied: [], document: "{}"),
            announcesAdvertising: true
        ) { $0.bluetooth.advertise = Self.settings }
        h.connectAndRestore()
        h.handle(.source(.advertising(.advertising(.legacy, interval: .milliseconds(100)))))
        #expect(Self.advertiseActions(h).isEmpty)
        var moved = Self.settings
        moved.beacon = .iBeacon(IBeacon(uuid: BeaconID128(high: 1, low: 2), major: 3, minor: 15, measuredPower: -59))
        var next = h.core.configuration
        next.bluetooth.advertise = moved
        h.core.layerApplied(
            .gateway, source: "b/gateways/gw/config/set", .success(ConfigurationUpdate(configuration: next)))
        h.actions += h.core.takeActions()
        h.tick()
        #expect(Self.advertiseActions(h) == [moved])
        // The new frame starts over: `starting` until the source says otherwise.
        #expect(Self.payloads(h).last?.contains(#""minor":15"#) == true)
        #expect(Self.payloads(h).last?.contains(#""state":"starting""#) == true)
        // The same section again changes nothing; the file turning it off stops the radio.
        h.core.reloaded(.success(next))
        h.actions += h.core.takeActions()
        #expect(Self.advertiseActions(h) == [moved])
        next.bluetooth.advertise = nil
        h.core.reloaded(.success(next))
        h.actions += h.core.takeActions()
        #expect(h.actions.filter { if case .advertise(nil) = $0 { true } else { false } }.count == 1)
        h.tick()
        #expect(Self.payloads(h).last == "")
        // A state the source reports after the section was turned off publishes nothing.
        let count = Self.payloads(h).count
        h.handle(.source(.advertising(.advertising(.legacy, interval: .milliseconds(100)))))
        #expect(Self.payloads(h).count == count)
    }

    @Test func aSourceThatDoesNotAdvertiseGetsNoAdvertiseAction() {
        var h = CoreHarness { $0.bluetooth.advertise = Self.settings }
        h.connectAndRestore()
        var next = h.core.configuration
        next.bluetooth.advertise = nil
        h.core.reloaded(.success(next))
        h.actions += h.core.takeActions()
        #expect(Self.advertiseActions(h).isEmpty)
    }
}
