import BeaconCore
import BeaconWire
import Vocabulary

extension ConfigDecoder {
    /// `telemetry:`: per-beacon telemetry (docs/configuration.md, docs/topics.md).
    func telemetry(_ value: ConfigValue, into s: inout TelemetrySettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("enabled", into: &s.enabled) { v throws(ConfigError) in try v.bool() }
        try m.read("interval", into: &s.interval) { v throws(ConfigError) in try v.duration(atLeast: .seconds(1)) }
        // 1 mV per bit in a 16-bit field (tlm-plain.md); 0 turns the threshold off.
        try m.read("low_battery_mv", into: &s.lowBatteryMillivolts) { v throws(ConfigError) in
            try v.integer(in: 0...65_535)
        }
    }
}
