import BeaconCore
import Foundation
import Settings
import Testing

@testable import IntegrationSupport
@testable import MessageContract

/// `compat: espresense` through a real mosquitto: a simulating gateway publishes each proximity
/// message again as ESPresense's device report, with the members ESPresense-companion reads
/// (src/Models/DeviceMessage.cs, Tests/Fixtures/foreign/PROVENANCE.md), under the id an ESPresense
/// node gives the same beacon and the gateway id as the node.
@Suite(.serialized) struct ESPresenseCompatTests {
    @Test func theGatewayIsAnESPresenseNodeToo() throws {
        let broker = try MosquittoBroker()
        let reports = try TestSubscriber(port: broker.port, pattern: "espresense/#")
        let own = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        let workspace = try Workspace(port: broker.port, extra: "compat: espresense\n")
        let agent = try workspace.start()
        defer {
            agent.signal(SIGTERM)
            _ = agent.wait(timeout: 10)
        }
        #expect(reports.waitFor(timeout: 15) { $0.count >= 5 }, "\(workspace.logText)")
        var configuration = Configuration()
        configuration.gateway.id = "e2e"
        let topics = TopicTree(configuration)
        for m in reports.messages.prefix(5) {
            let levels = m.topic.split(separator: "/", omittingEmptySubsequences: false)
            #expect(levels.count == 4 && levels[0] == "espresense" && levels[1] == "devices" && levels[3] == "e2e")
            #expect(m.qos == 0 && !m.retained)
            let json = try #require(JSONSerialization.jsonObject(with: Data(m.payload.utf8)) as? [String: Any])
            for key in ["distance", "rssi", "rssi@1m", "rxAdj"] {
                #expect(json[key] is NSNumber, "\(key) in \(m.payload)")
            }
            #expect(json["id"] as? String == String(levels[2]))
            let report = try ForeignReport.espresense(payload: Array(m.payload.utf8))
            guard case .beacon(let beacon)? = report.subject else {
                Issue.record("no beacon in \(m.payload)")
                continue
            }
            // The same reading as the gateway's own proximity message of that beacon.
            let distance = String(format: "%.2f", try #require(report.distance))
            #expect(
                own.waitFor {
                    $0.contains {
                        $0.topic == topics.beacon(beacon, .proximity)
                            && $0.payload.contains(#""accuracy":\#(distance)"#)
                    }
                }, "\(m.payload)")
        }
        #expect(agent.isRunning)
        reports.stop()
        own.stop()
    }
}
