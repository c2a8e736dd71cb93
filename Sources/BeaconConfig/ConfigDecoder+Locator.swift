import BeaconCore
import BeaconWire
import Vocabulary

extension ConfigDecoder {
    /// `locator:`: the hand-over rule of `beacon2mqtt locate` (docs: "Where is it? Floors and rooms").
    mutating func locator(_ value: ConfigValue, into s: inout LocatorSettings) throws(ConfigError) {
        let m = try value.mapping()
        try m.read("enabled", into: &s.enabled) { v throws(ConfigError) in try v.bool() }
        try m.read("engine", into: &s.engine) { v throws(ConfigError) in
            let text = try v.text()
            guard let engine = LocatorSettings.Engine(rawValue: text) else {
                throw v.error("expected one of nearest, belief, found '\(text)'")
            }
            return engine
        }
        try m.read("min_confidence", into: &s.belief.minConfidence) { v throws(ConfigError) in
            try v.number(in: 0.5...0.99)
        }
        try m.read("allow_unknown", into: &s.belief.allowsUnknown) { v throws(ConfigError) in try v.bool() }
        try m.read("interval", into: &s.interval) { v throws(ConfigError) in
            try v.duration(in: .milliseconds(100)...(.seconds(60)))
        }
        try m.read("settle", into: &s.settle) { v throws(ConfigError) in try v.duration(in: .zero...(.seconds(10))) }
        try m.read("clock_tolerance", into: &s.clockTolerance) { v throws(ConfigError) in
            try v.duration(in: .milliseconds(100)...(.seconds(3600)))
        }
        try m.read("stale_after", into: &s.staleAfter) { v throws(ConfigError) in try v.duration(atLeast: .seconds(1)) }
        try m.read("away_timeout", into: &s.awayTimeout) { v throws(ConfigError) in try v.duration(atLeast: .seconds(1))
        }
        try m.read("switch_outright", into: &s.handOver.switchOutright) { v throws(ConfigError) in
            try v.number(in: 0...1)
        }
        try m.read("switch_sustained", into: &s.handOver.switchSustained) { v throws(ConfigError) in
            try v.number(in: 0...1)
        }
        try m.read("history_window", into: &s.handOver.historyWindow) { v throws(ConfigError) in
            try v.integer(in: 1...60)
        }
        try m.read("min_history", into: &s.handOver.minHistory) { v throws(ConfigError) in try v.integer(in: 1...60) }
        try m.read("min_dwell", into: &s.handOver.minDwell) { v throws(ConfigError) in try v.duration() }
        try m.read("floor_confirmations", into: &s.floorConfirmations) { v throws(ConfigError) in
            try v.integer(in: 1...60)
        }
        try m.readOptional("mqtt_room_topic", into: &s.mqttRoomTopic) { v throws(ConfigError) in
            try Self.topicPrefix(v)
        }
        try m.readOptional("shard", into: &s.shard) { v throws(ConfigError) in try Self.shard(v) }
        try m.read("foreign_sources", into: &s.foreignSources) { v throws(ConfigError) in try Self.foreignSources(v) }
        try m.readOptional("site_plan", into: &s.positions.plan) { v throws(ConfigError) in
            try SitePlanFile.load(try v.nonEmptyText(), for: v)
        }
        try m.read("position_deadband", into: &s.positions.deadband) { v throws(ConfigError) in
            try v.number(in: 0...100)
        }
        try m.read("fingerprints", into: &s.belief.fingerprints) { v throws(ConfigError) in try Self.fingerprints(v) }
        if s.handOver.minHistory > s.handOver.historyWindow {
            throw m.error(
                "min_history", locatedAt: ["min_history", "history_window"],
                "\(s.handOver.minHistory) is more than locator.history_window (\(s.handOver.historyWindow))")
        }
        if s.handOver.switchSustained > s.handOver.switchOutright {
            throw m.error(
                "switch_sustained", locatedAt: ["switch_sustained", "switch_outright"],
                "\(ConfigValue.format(s.handOver.switchSustained)) is more than locator.switch_outright "
                    + "(\(ConfigValue.format(s.handOver.switchOutright))): the sustained rule must be the easier one")
        }
        if let v = m["rssi_offset"], !v.isNull {
            let offsets = try v.mapping()
            var result: [String: Double] = [:]
            for gateway in offsets.keys {
                let entry = offsets[gateway]!
                if let problem = TopicLevel.problem(gateway) { throw entry.error("gateway id \(problem)") }
                result[gateway] = try entry.number(in: -30...30)
            }
            s.rssiOffsets = result
        }
    }

    /// `fingerprints:`, as `beacon2mqtt survey` prints them: per room (`floor` and `power` optional),
    /// per gateway `[mean dBm, spread dB, share heard]`. nil: an empty list.
    static func fingerprints(_ v: ConfigValue) throws(ConfigError) -> RoomFingerprints? {
        var rooms: [RoomFingerprints.Room] = []
        for item in try v.list() {
            let r = try item.mapping()
            let floor = try r["floor"].flatMap { v throws(ConfigError) in v.isNull ? nil : try v.nonEmptyText() }
            let place = RoomBelief.Place(floor: floor, room: try r.required("room").nonEmptyText())
            if let first = rooms.firstIndex(where: { $0.place == place }) {
                throw r.error(
                    "room", locatedAt: ["room"], "a floor's rooms must be unique (also fingerprints[\(first)])")
            }
            let rssi = try r.required("rssi").mapping()
            var levels: [String: RoomFingerprints.Level] = [:]
            for gateway in rssi.keys.sorted() {
                let entry = rssi[gateway]!
                if let problem = TopicLevel.problem(gateway) { throw entry.error("gateway id \(problem)") }
                let triple = try entry.list()
                guard triple.count == 3 else {
                    throw entry.error("expected [mean dBm, spread dB, share heard], found \(triple.count) numbers")
                }
                levels[gateway] = RoomFingerprints.Level(
                    mean: try triple[0].number(in: -127...20), spread: try triple[1].number(in: 0.5...40),
                    heard: try triple[2].number(in: 0.001...0.999))
            }
            guard !levels.isEmpty else { throw rssi.at.error("no gateway: a room needs the level of at least one") }
            let power = try r["power"].flatMap { v throws(ConfigError) in v.isNull ? nil : try v.number(in: -127...0) }
            rooms.append(RoomFingerprints.Room(place: place, levels: levels, power: power))
        }
        return rooms.isEmpty ? nil : RoomFingerprints(rooms: rooms)
    }

    /// `k/n`: shard k of n locators (1 ≤ k ≤ n ≤ 1024).
    static func shard(_ v: ConfigValue) throws(ConfigError) -> LocatorShard {
        let text = try v.text()
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let digits = { (s: Substring) in !s.isEmpty && s.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard parts.count == 2, digits(parts[0]), digits(parts[1]), let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw v.error("expected k/n, this locator's shard k of n (for example 1/2), found '\(text)'")
        }
        guard (1...1024).contains(n) else {
            throw v.error("n (the number of shards) must be between 1 and 1024, found \(n)")
        }
        guard let shard = LocatorShard(index: k, count: n) else {
            throw v.error("k must be between 1 and \(n) (shards are numbered from 1), found \(k)")
        }
        return shard
    }
}
