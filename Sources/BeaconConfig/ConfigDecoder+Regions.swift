import BeaconCore
import BeaconWire
import Vocabulary

extension ConfigDecoder {
    /// Regions, like CLBeaconRegion: a uuid with optional major/minor, or an Eddystone namespace with
    /// an optional instance. Names are topic levels and unique.
    func regions(_ value: ConfigValue) throws(ConfigError) -> [BeaconRegion] {
        var regions: [BeaconRegion] = []
        var names: [String: ConfigValue] = [:]  // name → its region item
        for item in try value.list() {
            let m = try item.mapping()
            let name = try Self.uniqueName(m, item, what: "region", in: &names)
            var region: BeaconRegion
            switch try Self.scheme(m, requireAll: false) {
            case .uuid(let uuid):
                region = BeaconRegion(name: name, scheme: .uuid, uuid: uuid)
                try m.readOptional("major", into: &region.major) { v throws(ConfigError) in try Self.uint16(v) }
                try m.readOptional("minor", into: &region.minor) { v throws(ConfigError) in try Self.uint16(v) }
                if region.minor != nil, region.major == nil {
                    throw m.error("major", locatedAt: ["minor"], "is required when minor is set (as in CLBeaconRegion)")
                }
            case .eddystone(let namespace):
                region = BeaconRegion(name: name, scheme: .eddystone, uuid: namespace)
                try m.readOptional("instance", into: &region.instance) { v throws(ConfigError) in try Self.instance(v) }
            }
            try m.read("notify_entry", into: &region.notifyEntry) { v throws(ConfigError) in try v.bool() }
            try m.read("notify_exit", into: &region.notifyExit) { v throws(ConfigError) in try v.bool() }
            try m.readOptional("exit_timeout", into: &region.exitTimeout) { v throws(ConfigError) in
                try v.duration(atLeast: .seconds(1))
            }
            regions.append(region)
        }
        return regions
    }

    /// Per-beacon names and calibration; each beacon fully identified, and listed once.
    func beacons(_ value: ConfigValue) throws(ConfigError) -> [BeaconOverride] {
        var beacons: [BeaconOverride] = []
        var seen: [BeaconIdentity: ConfigValue] = [:]
        for item in try value.list() {
            let m = try item.mapping()
            let identity: BeaconIdentity
            switch try Self.scheme(m, requireAll: true) {
            case .uuid(let uuid):
                var major: UInt16 = 0
                var minor: UInt16 = 0
                try m.read("major", into: &major) { v throws(ConfigError) in try Self.uint16(v) }
                try m.read("minor", into: &minor) { v throws(ConfigError) in try Self.uint16(v) }
                identity = .uuid(uuid, major: major, minor: minor)
            case .eddystone(let namespace):
                var instance: UInt64 = 0
                try m.read("instance", into: &instance) { v throws(ConfigError) in try Self.instance(v) }
                identity = .eddystone(BeaconID128(high: namespace.high, low: namespace.low | instance))
            }
            if let first = seen[identity] {
                throw item.error("the same beacon as \(first.path) (line \(first.node.line))")
            }
            seen[identity] = item
            var beacon = BeaconOverride(identity: identity)
            try m.readOptional("name", into: &beacon.name) { v throws(ConfigError) in try v.nonEmptyText() }
            try m.readOptional("measured_power", into: &beacon.measuredPower) { v throws(ConfigError) in
                try v.integer(in: -127...0)
            }
            try m.readOptional("exit_timeout", into: &beacon.exitTimeout) { v throws(ConfigError) in
                try v.duration(atLeast: .seconds(1))
            }
            beacons.append(beacon)
        }
        return beacons
    }

    /// An entry's required `name`: a topic level, used by no earlier entry of `names` (name → entry).
    static func uniqueName(
        _ m: ConfigMapping, _ item: ConfigValue, what: String, in names: inout [String: ConfigValue]
    ) throws(ConfigError) -> String {
        guard let nameValue = m["name"], !nameValue.isNull else {
            throw m.error("name", locatedAt: [], "is required (it names the \(what) in topics)")
        }
        let name = try Self.topicLevel(nameValue)
        if let first = names[name] {
            throw nameValue.error("'\(name)' is already used by \(first.path) (line \(first.node.line))")
        }
        names[name] = item
        return name
    }

    private enum Scheme {
        case uuid(BeaconID128)
        /// The namespace in the high 10 bytes, the low 6 zero.
        case eddystone(BeaconID128)
    }

    /// Which identity scheme an entry uses, refusing keys of the other scheme. With `requireAll`
    /// (beacons), major+minor or instance must be present too.
    private static func scheme(_ m: ConfigMapping, requireAll: Bool) throws(ConfigError) -> Scheme {
        func given(_ key: String) -> ConfigValue? {
            guard let v = m[key], !v.isNull else { return nil }
            return v
        }
        switch (given("uuid"), given("namespace")) {
        case (let uuid?, nil):
            if let v = given("instance") {
                throw v.error("only applies with namespace (Eddystone); use major and minor with uuid")
            }
            if requireAll {
                for key in ["major", "minor"] where given(key) == nil {
                    throw m.error(key, locatedAt: ["uuid"], "is required with uuid (a beacon is uuid, major and minor)")
                }
            }
            return .uuid(try Self.uuid(uuid))
        case (nil, let namespace?):
            for key in ["major", "minor"] {
                if let v = given(key) {
                    throw v.error("only applies with uuid; use instance with namespace (Eddystone)")
                }
            }
            if requireAll, given("instance") == nil {
                throw m.error(
                    "instance", locatedAt: ["namespace"],
                    "is required with namespace (a beacon is namespace and instance)")
            }
            let bytes = try namespace.hex(digits: 20, what: "an Eddystone namespace")
            // 10 bytes, big-endian, as the UID frame carries them: the top 80 bits of the 128-bit id.
            let high = ByteReader.uint64(bytes, at: 0, .bigEndian)
            let low = UInt64(ByteReader.uint16(bytes, at: 8, .bigEndian)) << 48
            return .eddystone(BeaconID128(high: high, low: low))
        case (_?, let namespace?):
            throw namespace.error(
                "cannot be combined with uuid; an entry is either iBeacon/AltBeacon (uuid) or Eddystone (namespace)")
        case (nil, nil):
            let what = requireAll ? "uuid, major and minor, or namespace and instance" : "uuid or namespace"
            throw m.at.error("needs \(what)")
        }
    }

    /// 32 hex digits, either plain or dashed 8-4-4-4-12, any case.
    private static func uuid(_ v: ConfigValue) throws(ConfigError) -> BeaconID128 {
        let text = try v.text()
        let dashes = text.enumerated().filter { $0.element == "-" }.map(\.offset)
        let shaped = dashes.isEmpty ? text.count == 32 : text.count == 36 && dashes == [8, 13, 18, 23]
        guard shaped, let id = BeaconID128(uuidString: text), !text.contains(where: \.isWhitespace) else {
            throw v.error("must be a UUID like e2c56db5-dffb-48d2-b060-d0f5a71096e0 (dashes optional), found '\(text)'")
        }
        return id
    }

    private static func uint16(_ v: ConfigValue) throws(ConfigError) -> UInt16 {
        UInt16(try v.integer(in: 0...65535))
    }

    /// The 48-bit Eddystone-UID instance (Eddystone protocol, UID frame: 6 bytes, big-endian).
    private static func instance(_ v: ConfigValue) throws(ConfigError) -> UInt64 {
        let bytes = try v.hex(digits: 12, what: "an Eddystone instance")
        return UInt64(ByteReader.uint16(bytes, at: 0, .bigEndian)) << 32
            | UInt64(ByteReader.uint32(bytes, at: 2, .bigEndian))
    }
}
