import BeaconCore
import Settings
import Testing

@testable import BeaconConfig

@Suite struct FailoverConfigTests {
    @Test func failoverBrokersAreHostsWithTheirPortOrMQTTPort() throws {
        #expect(try parse("").mqtt.failover.isEmpty)
        let brokers = try parse(
            "mqtt:\n  port: 8883\n  failover:\n    - b.example\n    - \"c.example:1884\"\n    - \"[::1]:1885\"\n    - \"[fe80::1]\"\n"
        ).mqtt.failover
        #expect(
            brokers == [
                MQTTSettings.Failover(host: "b.example"), MQTTSettings.Failover(host: "c.example", port: 1884),
                MQTTSettings.Failover(host: "::1", port: 1885), MQTTSettings.Failover(host: "fe80::1"),
            ])
    }

    @Test func aBadFailoverBrokerIsAnErrorAtItsLineAndKey() {
        for (text, says) in [
            ("\"b:0\"", "1 to 65535"), ("\"b:x\"", "1 to 65535"), ("\"::1\"", "host:port"), ("\":1883\"", "host:port"),
            ("\"a b\"", "host:port"), ("\"[::1\"", "host:port"), ("\"[::1]x\"", "host:port"), ("\"\"", "empty"),
        ] {
            do {
                _ = try parse("mqtt:\n  failover:\n    - ok.example\n    - \(text)\n")
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.key == "mqtt.failover[1]", "\(text): \(error.key)")
                #expect(error.line == 4, "\(text)")
                #expect(error.message.contains(says), "\(text): \(error.message)")
            }
        }
        #expect(throws: ConfigError.self) { try parse("mqtt:\n  failover: b.example\n") }
    }
}
