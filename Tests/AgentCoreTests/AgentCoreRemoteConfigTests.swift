import AgentCore
import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Testing
import Vocabulary

/// Configuration over MQTT in the core: subscriptions, the rate limit, the read-back after a
/// connection, and what the broker is told about each layer.
@Suite struct AgentCoreRemoteConfigTests {
    static let fleet = "b/fleet/config/set"
    static let gateway = "b/gateways/gw/config/set"

    func harness(applied: Set<ConfigLayer> = [], document: String? = #"{"config":{}}"#) -> CoreHarness {
        CoreHarness(
            remote: RemoteConfiguration(
                topics: TopicTree(base: "b", gateway: "gw"), applied: applied, document: document))
    }

    func requests(_ h: CoreHarness) -> [(ConfigLayer, String)] {
        h.actions.compactMap {
            if case .applyConfigurationLayer(let layer, let payload, let source) = $0 {
                #expect(source == (layer == .fleet ? Self.fleet : Self.gateway))
                return (layer, String(decoding: payload, as: UTF8.self))
            }
            return nil
        }
    }

    func set(_ h: inout CoreHarness, _ topic: String, _ text: String) {
        h.handle(.mqtt(.message(topic: topic, payload: Array(text.utf8), retained: true)))
    }

    @Test func onConnectItSubscribesToBothLayersAndRepublishesTheEffectiveConfiguration() {
        var h = harness()
        h.connectAndRestore()
        #expect(h.broker.subscribed.suffix(2) == [Self.fleet, Self.gateway])
        #expect(h.broker.published.filter { $0.topic == "b/gateways/gw/config" }.map(\.payload) == [#"{"config":{}}"#])
    }

    @Test func withoutRemoteConfigurationNothingIsSubscribedOrApplied() {
        var h = CoreHarness()
        h.connectAndRestore()
        #expect(!h.broker.subscribed.contains(Self.fleet))
        set(&h, Self.fleet, "gateway: {room: x}")
        #expect(requests(h).isEmpty)
    }

    @Test func aFloodIsAppliedOncePerSecondAndEndsAtItsLastMessage() {
        var h = harness()
        h.connectAndRestore()
        for n in 1...50 { set(&h, Self.fleet, "gateway: {room: r\(n)}") }
        set(&h, Self.gateway, "gateway: {room: mine}")
        // The first of each layer at once; the other 49 fleet messages coalesce into the newest.
        #expect(
            requests(h).map { "\($0.0):\($0.1)" } == ["fleet:gateway: {room: r1}", "gateway:gateway: {room: mine}"])
        h.pass(0.999)
        h.tick()
        #expect(requests(h).count == 2)
        #expect(h.core.nextWake == h.now + .milliseconds(1))
        h.pass(0.001)
        h.tick()
        #expect(requests(h).map(\.1).last == "gateway: {room: r50}")
        #expect(requests(h).count == 3)
    }

    @Test func anAppliedLayerRunsLikeAReloadAndARefusedOneChangesNothing() {
        var h = harness()
        h.connectAndRestore()
        var next = h.core.configuration
        next.gateway.room = "kitchen"
        h.core.layerApplied(
            .gateway, source: Self.gateway,
            .success(ConfigurationUpdate(configuration: next, document: #"{"v":2}"#, layers: [.gateway])))
        h.actions += h.core.takeActions()
        h.tick()
        #expect(h.core.configuration.gateway.room == "kitchen")
        #expect(h.broker.published.last { $0.topic == "b/gateways/gw/config" }?.payload == #"{"v":2}"#)
        #expect(h.logs.contains("info: configuration layer applied layer=gateway source=\(Self.gateway)"))
        h.core.layerApplied(
            .fleet, source: Self.fleet,
            .failure(ConfigurationRejection(diagnostics: ["b/fleet/config/set:1:2: mqtt: no"])))
        h.actions += h.core.takeActions()
        h.tick()
        #expect(h.core.configuration.gateway.room == "kitchen")
        let error = h.broker.published.last { $0.topic == "b/gateways/gw/config/error" }
        #expect(
            error?.payload
                == #"{"layer":"fleet","source":"b/fleet/config/set","digest":"cbf29ce484222325","diagnostics":["b/fleet/config/set:1:2: mqtt: no"],"time":"2023-11-14T22:13:20.300Z"}"#
        )
        #expect(h.broker.published.filter { $0.topic == "b/gateways/gw/config" }.count == 2)
    }

    @Test func anOversizePayloadIsRefusedUnapplied() {
        var h = harness()
        h.connectAndRestore()
        let big = String(repeating: "x", count: ConfigLayer.maximumPayload + 1)
        set(&h, Self.fleet, big)
        h.tick()
        #expect(requests(h).isEmpty)
        #expect(h.broker.published.last?.topic == "b/gateways/gw/config/error")
        #expect(h.broker.published.last?.payload.contains("over the limit of 65536") == true)
        // The error names the payload it refuses, so `config set` knows it is the answer to its own.
        #expect(
            h.broker.published.last?.payload.contains(#""digest":"\#(ConfigLayer.digest(Array(big.utf8)))""#) == true)
    }

    @Test func aKeptLayerTheBrokerNoLongerHoldsIsRemovedAfterTheReadBack() {
        var h = harness(applied: [.fleet, .gateway])
        h.handle(.mqtt(.connected(generation: 1)))
        for mid in h.broker.subscriptionMids { h.handle(.mqtt(.subscribed(generation: 1, mid: mid))) }
        set(&h, Self.gateway, "gateway: {room: still}")
        h.pass(0.99)
        h.tick()
        #expect(requests(h).map(\.0) == [.gateway])
        h.pass(0.01)
        h.tick()
        // The fleet layer did not come back: removed (an empty payload); the gateway's was read again.
        #expect(requests(h).map { "\($0.0):\($0.1)" } == ["gateway:gateway: {room: still}", "fleet:"])
    }
    /// The shell's part of a run-time change: a new `log_level`, and the embedded locator when what
    /// it is built from changes (`LocatorSetup`) — asked for once per change, never for other keys.
    @Test func logLevelAndTheLocatorFollowALayerThroughActions() {
        var h = harness()
        h.connectAndRestore()
        func apply(_ h: inout CoreHarness, _ change: (inout Configuration) -> Void) -> [AgentAction] {
            var next = h.core.configuration
            change(&next)
            h.core.layerApplied(
                .fleet, source: Self.fleet, .success(ConfigurationUpdate(configuration: next, layers: [.fleet])))
            return h.core.takeActions().filter {
                switch $0 {
                case .setLogLevel, .configureLocator: true
                default: false
                }
            }
        }
        #expect(apply(&h) { $0.gateway.room = "kitchen" }.isEmpty)
        #expect(apply(&h) { $0.logLevel = .debug } == [.setLogLevel(.debug)])
        var enabled = h.core.configuration
        enabled.locator.enabled = true
        enabled.locator.handOver.minDwell = .seconds(5)
        #expect(apply(&h) { $0.locator = enabled.locator } == [.configureLocator(enabled)])
        // What the locator reads of the rest: a beacon it announces, Home Assistant, the distance model.
        let beacon = BeaconOverride(identity: .uuid(BeaconID128(high: 1, low: 2), major: 1, minor: 2), name: "keys")
        let added = apply(&h) { $0.beacons = [beacon] }
        #expect(added.count == 1)
        if case .configureLocator(let c)? = added.first { #expect(c.beacons == [beacon] && c.locator.enabled) }
        #expect(apply(&h) { $0.homeAssistant.discovery = true }.count == 1)
        #expect(apply(&h) { $0.ranging.distance.exponent = 3 }.count == 1)
        #expect(apply(&h) { $0.monitoring.exitTimeout = .seconds(20) }.isEmpty)
        // SIGHUP's file takes the same path.
        var file = h.core.configuration
        file.locator.enabled = false
        file.logLevel = .warning
        h.core.reloaded(.success(file))
        let reloaded = h.core.takeActions()
        #expect(reloaded.contains(.setLogLevel(.warning)))
        #expect(reloaded.contains(.configureLocator(file)))
    }
}
