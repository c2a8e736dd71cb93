import BeaconCore
import BeaconWire
import Vocabulary

extension ConfigDecoder {
    mutating func ranging(_ value: ConfigValue, into s: inout RangingSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("interval", into: &s.interval) { v throws(ConfigError) in
            try v.duration(in: .milliseconds(100)...(.seconds(60)))
        }
        try m.read("stale_after", into: &s.staleAfter) { v throws(ConfigError) in try v.duration() }
        if s.staleAfter < s.interval {
            throw m.error(
                "stale_after", locatedAt: ["stale_after", "interval"],
                "\(DurationText.format(s.staleAfter)) is shorter than ranging.interval (\(DurationText.format(s.interval)))"
            )
        }
        if let v = m["filter"] { try filter(v, into: &s.filter) }
        if let v = m["distance"] { try distance(v, into: &s.distance) }
        if let v = m["proximity"] {
            let p = try v.mapping()
            try p.read("immediate", into: &s.proximity.immediate) { v throws(ConfigError) in try v.positiveNumber() }
            try p.read("near", into: &s.proximity.near) { v throws(ConfigError) in try v.positiveNumber() }
            if s.proximity.near <= s.proximity.immediate {
                throw p.error(
                    "near", locatedAt: ["near", "immediate"],
                    "\(ConfigValue.format(s.proximity.near)) m must be greater than ranging.proximity.immediate "
                        + "(\(ConfigValue.format(s.proximity.immediate)) m)")
            }
        }
        if let v = m["publish"] {
            let p = try v.mapping()
            try p.read("on_proximity_change", into: &s.publish.onProximityChange) { v throws(ConfigError) in
                try v.bool()
            }
            try p.read("accuracy_deadband", into: &s.publish.accuracyDeadband) { v throws(ConfigError) in
                try v.number(atLeast: 0)
            }
            try p.read("rssi_deadband", into: &s.publish.rssiDeadband) { v throws(ConfigError) in
                try v.number(atLeast: 0)
            }
            try p.read("heartbeat", into: &s.publish.heartbeat) { v throws(ConfigError) in try v.duration() }
            try p.read("ranging_list", into: &s.publish.rangingList) { v throws(ConfigError) in try v.bool() }
        }
    }

    private mutating func filter(_ value: ConfigValue, into s: inout FilterSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("type", into: &s.kind) { v throws(ConfigError) in try v.choice(FilterSettings.Kind.self) }
        try m.read("window", into: &s.window) { v throws(ConfigError) in try v.duration(atLeast: .milliseconds(100)) }
        try m.read("trim", into: &s.trim) { v throws(ConfigError) in
            let trim = try v.number(atLeast: 0)
            guard trim < 0.5 else {
                throw v.error("must be less than 0.5 (it is trimmed from each end), found \(ConfigValue.format(trim))")
            }
            return trim
        }
        try m.read("process_noise", into: &s.processNoise) { v throws(ConfigError) in try v.positiveNumber() }
        try m.read("measurement_noise", into: &s.measurementNoise) { v throws(ConfigError) in try v.positiveNumber() }
        // Settings of another filter type are legal (the example file lists them all), but a
        // changed value that cannot take effect is probably a mistake.
        let standard = FilterSettings()
        let changed: [(key: String, kinds: [FilterSettings.Kind], changed: Bool)] = [
            ("window", [.median, .trimmedMean], s.window != standard.window),
            ("trim", [.trimmedMean], s.trim != standard.trim),
            ("process_noise", [.kalman], s.processNoise != standard.processNoise),
            ("measurement_noise", [.kalman], s.measurementNoise != standard.measurementNoise),
        ]
        for entry in changed where entry.changed && !entry.kinds.contains(s.kind) {
            if let v = m[entry.key] { warn(v.warning("has no effect with ranging.filter.type \(s.kind.rawValue)")) }
        }
    }

    private mutating func distance(_ value: ConfigValue, into s: inout DistanceSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("model", into: &s.model) { v throws(ConfigError) in try v.choice(DistanceSettings.Model.self) }
        try m.read("exponent", into: &s.exponent) { v throws(ConfigError) in try v.number(in: 1...6) }
        try m.read("default_measured_power", into: &s.defaultMeasuredPower) { v throws(ConfigError) in
            try v.integer(in: -127...0)
        }
        if s.model != .logDistance, s.exponent != DistanceSettings().exponent, let v = m["exponent"] {
            warn(v.warning("has no effect with ranging.distance.model \(s.model.rawValue)"))
        }
    }
}
