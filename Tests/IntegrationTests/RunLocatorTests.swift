import CLI
import Foundation
import Testing

@testable import IntegrationSupport

/// `run` with `locator.enabled: true` starts the embedded locator on its own MQTT session: it comes
/// online on `<base>/locators/<gw>/status` and publishes retained locations for the beacons its own
/// gateway ranges.
@Suite(.serialized) struct RunLocatorTests {
    @Test func anEnabledLocatorInsideRunPublishesLocations() throws {
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        defer { subscriber.stop() }
        let workspace = try Workspace(port: broker.port, gateway: "hall")
        let yaml = """
            gateway:
              id: hall
              floor: "1"
              room: hall
            mqtt:
              host: 127.0.0.1
              port: \(broker.port)
            locator:
              enabled: true
            """
        try yaml.write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let agent = try workspace.start(["--simulate", "--beacons", "2", "--seed", "7"])
        defer {
            agent.signal(SIGTERM)
            _ = agent.wait(timeout: 10)
        }
        #expect(
            subscriber.waitFor(timeout: 20) { messages in
                messages.contains { $0.topic == "beacons/locators/hall/status" && $0.payload == "online" }
            }, "\(workspace.logText)")
        #expect(
            subscriber.waitFor(timeout: 30) { messages in
                messages.contains { $0.topic.hasSuffix("/location") && $0.payload.contains(#""gateway":"hall""#) }
            }, "\(workspace.logText)")
        // Retained: a subscriber that comes later still gets the location.
        let late = try TestSubscriber(port: broker.port, pattern: "beacons/+/+/+/location")
        defer { late.stop() }
        // The retained ones come first, but live ones may follow at any time: read the retained.
        #expect(late.waitFor { $0.contains { $0.retained } })
        let retained = late.messages.filter(\.retained)
        #expect(!retained.isEmpty)
        for location in retained {
            #expect(location.payload.contains(#""room":"hall""#), "\(location)")
            #expect(location.payload.contains(#""floor":"1""#), "\(location)")
        }
    }
}
