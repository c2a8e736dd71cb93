import BeaconCore
import Settings
import Testing

@testable import BeaconConfig

@Suite struct ForeignSourceConfigTests {
    /// `compat`: one name or a list; off by default; a wrong name is file:line and key.
    @Test func compatTakesANameOrAList() throws {
        #expect(try parse("log_level: info\n").compat.isEmpty)
        #expect(try parse("compat: espresense\n").compat == [.espresense])
        #expect(try parse("compat: [espresense, espresense]\n").compat == [.espresense])
        #expect(try parse("compat: []\n").compat.isEmpty)
        do {
            _ = try parse("log_level: info\ncompat: [espressense]\n")
            Issue.record("accepted a wrong name")
        } catch {
            #expect(error.key == "compat[0]" && error.line == 2, "\(error)")
            #expect(error.message.contains("did you mean 'espresense'"), "\(error.message)")
        }
    }

    @Test func sourcesTakeTheirFormatsTopicsUnlessSet() throws {
        let config = try parse(
            """
            locator:
              foreign_sources:
                - format: espresense
                  nodes:
                    - node: kitchen
                      floor: 1
                      room: kitchen
                    - node: hall
                      gateway: esp-hall
                      position: {x: 4.5, y: 2}
                - format: openmqttgateway
                  topic: site/+/BTtoMQTT/+
                  availability: site/+/LWT
                  nodes:
                    - node: OMG_lolin32
                      gateway: omg-living
                      room: living room
            """)
        let s = config.locator.foreignSources
        #expect(s.count == 2)
        #expect(s[0].format == .espresense)
        #expect(s[0].topic == "espresense/devices/+/+")
        #expect(s[0].availability == "espresense/rooms/+/status")
        #expect(s[0].nodes["kitchen"] == ForeignSource.Node(gateway: "kitchen", floor: "1", room: "kitchen"))
        #expect(s[0].nodes["hall"] == ForeignSource.Node(gateway: "esp-hall", position: SitePosition(x: 4.5, y: 2)))
        #expect(s[1].format == .openmqttgateway)
        #expect(s[1].topic == "site/+/BTtoMQTT/+")
        #expect(s[1].availability == "site/+/LWT")
        #expect(s[1].nodes == ["OMG_lolin32": .init(gateway: "omg-living", room: "living room")])
        #expect(try parse("locator:\n  enabled: false\n").locator.foreignSources.isEmpty)
    }

    @Test func badSourcesNameFileLineAndKey() {
        let cases: [(yaml: String, key: String, line: Int, says: String)] = [
            (
                "locator:\n  foreign_sources:\n    - format: espresence\n      nodes: []\n",
                "locator.foreign_sources[0].format", 3, "did you mean 'espresense'"
            ),
            (
                "locator:\n  foreign_sources:\n    - format: espresense\n",
                "locator.foreign_sources[0].nodes", 3, "missing"
            ),
            (
                "locator:\n  foreign_sources:\n    - format: espresense\n      topic: espresense/#/x\n      nodes: []\n",
                "locator.foreign_sources[0].topic", 4, "'#' must be the last level"
            ),
            (
                "locator:\n  foreign_sources:\n    - format: espresense\n      availability: a/b+/c\n      nodes: []\n",
                "locator.foreign_sources[0].availability", 4, "whole level"
            ),
            (
                "locator:\n  foreign_sources:\n    - format: openmqttgateway\n      topic: home/gw/BLE/x\n      nodes: []\n",
                "locator.foreign_sources[0].topic", 4, "BTtoMQTT"
            ),
            (
                "locator:\n  foreign_sources:\n    - format: espresense\n      nodes:\n        - node: a/b\n",
                "locator.foreign_sources[0].nodes[0].node", 5, "'/'"
            ),
            (
                "locator:\n  foreign_sources:\n    - format: espresense\n      nodes:\n        - node: a\n        - node: a\n",
                "locator.foreign_sources[0].nodes[1].node", 6, "listed twice"
            ),
            (
                "locator:\n  foreign_sources:\n    - format: espresense\n      nodes:\n        - node: a\n          gateway: x+\n",
                "locator.foreign_sources[0].nodes[0].gateway", 6, "wildcards"
            ),
            (
                "locator:\n  foreign_sources:\n    - format: espresense\n      nodes:\n        - node: a\n          rooom: x\n",
                "locator.foreign_sources[0].nodes[0].rooom", 6, "did you mean 'room'"
            ),
        ]
        for c in cases {
            do {
                _ = try parse(c.yaml)
                Issue.record("accepted: \(c.yaml)")
            } catch {
                #expect(error.key == c.key, "\(c.yaml)")
                #expect(error.line == c.line, "\(c.yaml)")
                #expect(error.message.contains(c.says), "\(error.message)")
            }
        }
    }
}
