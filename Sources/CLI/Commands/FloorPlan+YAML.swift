import BeaconConfig
import BeaconWire
import Platform
import Simulation

/// The floor-plan file (docs/locator.md, “Simulating a building”; etc/floor-plan.yaml) read with the
/// configuration's YAML reader (libyaml through `ConfigValue`), so its mistakes print like the
/// configuration's, `file:line:column: key: message`, and `run` exits 78 for both. It lives with the
/// commands because the simulator itself knows no file format.
extension FloorPlan {
    static let schema = SitePlanFile.schema

    /// Parses floor-plan YAML; `file` names it in errors.
    package static func parse(_ text: String, file: String = "floor plan") throws(ConfigError) -> FloorPlan {
        try decode(Array(text.utf8), file: file)
    }

    package static func load(path: String) throws(ConfigError) -> FloorPlan {
        let text: String
        do { text = try FileSystem.text(path) } catch {
            throw ConfigError(file: path, line: 0, column: 0, key: "", message: "cannot read: \(error)")
        }
        return try parse(text, file: path)
    }

    private static func decode(_ bytes: [UInt8], file: String) throws(ConfigError) -> FloorPlan {
        guard let root = try ConfigValue.document(bytes, file: file, schema: schema) else {
            throw ConfigError(file: file, line: 0, column: 0, key: "gateways", message: "no gateways")
        }
        let m = try root.mapping()
        var plan = FloorPlan()
        try m.read("seed", into: &plan.seed) { v throws(ConfigError) in
            guard let seed = UInt64(try v.text()) else { throw v.error("expected a whole number ≥ 0") }
            return seed
        }
        try m.read("uuid", into: &plan.uuid) { v throws(ConfigError) in
            guard let uuid = BeaconID128(uuidString: try v.text()) else { throw v.error("expected a UUID") }
            return uuid
        }
        try m.read("major", into: &plan.major) { v throws(ConfigError) in UInt16(try v.integer(in: 0...65535)) }
        try m.read("measured_power", into: &plan.measuredPower) { v throws(ConfigError) in Int(try v.number()) }
        try m.read("path_loss_exponent", into: &plan.pathLossExponent) { v throws(ConfigError) in try v.number() }
        try m.read("noise_db", into: &plan.noiseDB) { v throws(ConfigError) in try v.number() }
        try m.read("floor_attenuation_db", into: &plan.floorAttenuationDB) { v throws(ConfigError) in try v.number() }
        try m.read("floor_height", into: &plan.floorHeight) { v throws(ConfigError) in try v.number() }
        try m.read("sensitivity_dbm", into: &plan.sensitivityDBm) { v throws(ConfigError) in try v.number() }
        // BLE's shortest advertising interval is 20 ms.
        try m.read("advert_interval", into: &plan.advertInterval) { v throws(ConfigError) in try v.number(atLeast: 0.02)
        }
        try m.read("loss", into: &plan.loss) { v throws(ConfigError) in
            let loss = try v.number(in: 0...1)
            guard loss < 1 else { throw v.error("must be below 1 (every advert lost), found 1") }
            return loss
        }
        let gateways = try m["gateways"]?.list() ?? []
        for item in gateways {
            let g = try item.mapping()
            plan.gateways.append(
                Gateway(
                    id: try g.required("id").nonEmptyText(), floor: try g.required("floor").nonEmptyText(),
                    room: try g.required("room").nonEmptyText(), x: try g.required("x").number(),
                    y: try g.required("y").number()))
            if let first = plan.gateways.dropLast().firstIndex(where: { $0.id == plan.gateways.last!.id }) {
                throw g.error("id", locatedAt: ["id"], "gateway ids must be unique (also gateways[\(first)])")
            }
        }
        guard !plan.gateways.isEmpty else { throw m.error("gateways", locatedAt: ["gateways"], "no gateways") }
        for item in try m["waypoints"]?.list() ?? [] {
            let w = try item.mapping()
            plan.waypoints.append(
                Waypoint(
                    minor: UInt16(try w.required("minor").integer(in: 0...65535)),
                    at: try w.required("at").number(atLeast: 0), x: try w.required("x").number(),
                    y: try w.required("y").number(), floor: try w.required("floor").nonEmptyText()))
        }
        plan.waypoints.sort { ($0.minor, $0.at) < ($1.minor, $1.at) }
        return plan
    }
}
