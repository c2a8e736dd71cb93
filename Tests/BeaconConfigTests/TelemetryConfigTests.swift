import BeaconCore
import BeaconWire
import Settings
import Testing
import Vocabulary

@testable import BeaconConfig

@Suite struct TelemetryConfigTests {
    @Test func defaultsAndValues() throws {
        let defaults = try parse("")
        #expect(defaults.telemetry == TelemetrySettings())
        #expect(defaults.telemetry.enabled && defaults.telemetry.interval == .seconds(60))
        #expect(defaults.telemetry.lowBatteryMillivolts == 2500)
        let c = try parse("telemetry:\n  enabled: false\n  interval: 5m\n  low_battery_mv: 0\n")
        #expect(!c.telemetry.enabled)
        #expect(c.telemetry.interval == .seconds(300))
        #expect(c.telemetry.lowBatteryMillivolts == 0)
    }

    @Test func badValuesNameFileLineColumnAndKey() {
        #expect(
            failure("telemetry:\n  interval: 500ms\n")
                == "test.yaml:2:13: telemetry.interval: must be at least 1s, found 500ms")
        #expect(
            failure("telemetry:\n  low_battery_mv: 70000\n")
                == "test.yaml:2:19: telemetry.low_battery_mv: must be between 0 and 65535, found 70000")
        #expect(
            failure("telemetry:\n  low_battery_mv: 2.5\n")
                == "test.yaml:2:19: telemetry.low_battery_mv: expected a whole number, found '2.5'")
        #expect(
            failure("telemetry:\n  enabled: sometimes\n")
                == "test.yaml:2:12: telemetry.enabled: expected true or false, found 'sometimes'")
        #expect(
            failure("telemetry:\n  intervall: 1m\n")?.hasPrefix("test.yaml:2:3: telemetry.intervall: unknown key")
                == true)
    }
}
