import BeaconCore
import BeaconWire
import Settings
import Vocabulary

extension ConfigDecoder {
    /// `advertise:`: what the gateway advertises while it scans (docs/advertising.md). Off unless
    /// `enabled: true`; the same fields and checks as `beacon2mqtt advertise`, each mistake at its key.
    func advertise(_ value: ConfigValue, scanner: ScannerSettings) throws(ConfigError) -> AdvertiseSettings? {
        let m = try value.mapping()
        var enabled = false
        try m.read("enabled", into: &enabled) { v throws(ConfigError) in try v.bool() }
        var format: AdvertiseSettings.Format?
        try m.readOptional("type", into: &format) { v throws(ConfigError) in try v.choice(AdvertiseSettings.Format.self)
        }
        var connectable = false
        try m.read("connectable", into: &connectable) { v throws(ConfigError) in try v.bool() }
        var values: [AdvertiseField: String] = [:]
        for field in AdvertiseField.allCases where field != .interval {
            try m.readOptional(field.configKey, into: &values[field]) { v throws(ConfigError) in try v.text() }
        }
        var interval: TimeSpan?
        try m.readOptional("interval", into: &interval) { v throws(ConfigError) in
            try v.duration(in: AdvertisingConfiguration.intervalRange)
        }
        guard enabled else { return nil }
        if scanner.mode == .listen {
            throw m.error(
                "enabled", locatedAt: ["enabled"],
                "scanner.mode is listen, which never sends a command, so the gateway cannot advertise; "
                    + "use scanner.mode active or passive, or turn advertise off")
        }
        let formats = AdvertiseSettings.Format.allCases.map(\.rawValue).joined(separator: ", ")
        guard let format else {
            throw m.error("type", locatedAt: ["enabled"], "missing; advertise needs a type: \(formats)")
        }
        do {
            return try AdvertiseSettings.make(
                format: format, values: values, interval: interval, connectable: connectable)
        } catch {
            let key = error.field.configKey
            let message = error.message.hasPrefix("is required") ? "missing; it \(error.message)" : error.message
            if let v = m[key], !v.isNull { throw v.error(message) }
            throw m.error(key, locatedAt: ["type"], message)
        }
    }
}
