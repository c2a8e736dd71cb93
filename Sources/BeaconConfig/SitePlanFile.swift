import BeaconCore

/// The floor-plan file, one format for the simulator (`run --simulate --floor-plan`) and the
/// locator (`locator.site_plan`): gateways at x, y, z on floors, rooms as polygons, walls, and the
/// simulator's walk. Read with the configuration's YAML reader, so a mistake prints as
/// `file:line:column: key: message` and a command exits 78 for it (docs/locator.md, "Positions on a
/// floor plan").
package enum SitePlanFile {
    package static let schema = ConfigSchema(
        sections: [
            "": [
                "seed", "uuid", "major", "measured_power", "path_loss_exponent", "noise_db", "floor_attenuation_db",
                "floor_height", "sensitivity_dbm", "advert_interval", "loss", "gateways", "rooms", "walls", "waypoints",
                "survey",
            ],
            "gateways[]": ["id", "floor", "room", "x", "y", "z"],
            "rooms[]": ["floor", "name", "points"],
            "walls[]": ["floor", "points"],
            "waypoints[]": ["minor", "at", "x", "y", "floor"],
            "survey[]": ["floor", "x", "y", "power", "rssi", "readings"],
        ], freeForm: ["survey[].rssi"])

    /// Reads the plan at `path` for the locator: it needs rooms and gateways on them. `v` is the
    /// configuration key naming it, where a file that cannot be read is reported.
    static func load(_ path: String, for v: ConfigValue) throws(ConfigError) -> SitePlan {
        let bytes: [UInt8]
        do { bytes = try ConfigLoader.readFile(path) } catch {
            let reason = error.message.hasPrefix("cannot read: ") ? String(error.message.dropFirst(13)) : error.message
            throw v.error("cannot read '\(path)': \(reason)")
        }
        return try plan(bytes, file: path)
    }

    /// The plan at `path`, as `locator.site_plan` reads it.
    package static func load(path: String) throws(ConfigError) -> SitePlan {
        try plan(try ConfigLoader.readFile(path), file: path)
    }

    /// A plan for the locator from the file's bytes: it needs rooms.
    package static func plan(_ bytes: [UInt8], file path: String) throws(ConfigError) -> SitePlan {
        guard let root = try ConfigValue.document(bytes, file: path, schema: schema) else {
            throw ConfigError(file: path, line: 0, column: 0, key: "rooms", message: "no rooms")
        }
        let plan = try parse(root)
        guard !plan.rooms.isEmpty else {
            throw try root.mapping().error(
                "rooms", locatedAt: ["rooms"], "no rooms: the locator places beacons in them")
        }
        return plan
    }

    /// The plan's gateways, rooms, walls, survey and path-loss exponent (the simulator's keys are checked
    /// by the simulator's own reader).
    package static func parse(_ root: ConfigValue) throws(ConfigError) -> SitePlan {
        let m = try root.mapping()
        var plan = SitePlan()
        try m.readOptional("path_loss_exponent", into: &plan.pathLossExponent) { v throws(ConfigError) in
            try v.number(in: PathLossCalibration.plausibleExponents)
        }
        for item in try m["gateways"]?.list() ?? [] {
            let g = try item.mapping()
            let position = SitePosition(
                x: try coordinate(g.required("x")), y: try coordinate(g.required("y")),
                z: try g["z"].map { v throws(ConfigError) in try coordinate(v) } ?? 0)
            let room = try g["room"].flatMap { v throws(ConfigError) in v.isNull ? nil : try v.nonEmptyText() }
            let gateway = SitePlan.Gateway(
                id: try g.required("id").nonEmptyText(), floor: try g.required("floor").nonEmptyText(), room: room,
                position: position)
            if let first = plan.gateways.firstIndex(where: { $0.id == gateway.id }) {
                throw g.error("id", locatedAt: ["id"], "gateway ids must be unique (also gateways[\(first)])")
            }
            plan.gateways.append(gateway)
        }
        for item in try m["rooms"]?.list() ?? [] {
            let r = try item.mapping()
            let room = SitePlan.Room(
                floor: try r.required("floor").nonEmptyText(), name: try r.required("name").nonEmptyText(),
                outline: try points(r.required("points"), atLeast: 3))
            if let first = plan.rooms.firstIndex(where: { $0.floor == room.floor && $0.name == room.name }) {
                throw r.error("name", locatedAt: ["name"], "a floor's room names must be unique (also rooms[\(first)])")
            }
            if area(room.outline) < 0.01 {
                throw r.error(
                    "points", locatedAt: ["points"], "the outline encloses no area (its points lie on a line)")
            }
            plan.rooms.append(room)
        }
        for item in try m["walls"]?.list() ?? [] {
            let w = try item.mapping()
            plan.walls.append(
                SitePlan.Wall(
                    floor: try w.required("floor").nonEmptyText(), points: try points(w.required("points"), atLeast: 2))
            )
        }
        for item in try m["survey"]?.list() ?? [] { plan.survey.append(try surveyPoint(item, on: plan)) }
        return plan
    }

    /// One point of `survey:`: inside a room of its floor, heard by gateways of that floor.
    private static func surveyPoint(_ item: ConfigValue, on plan: SitePlan) throws(ConfigError) -> SitePlan.SurveyPoint
    {
        let s = try item.mapping()
        let floor = try s.required("floor").nonEmptyText()
        let point = SitePlan.Point(x: try coordinate(s.required("x")), y: try coordinate(s.required("y")))
        guard plan.room(at: point, floor: floor) != nil else {
            throw s.error(
                "x", locatedAt: ["x", "y"],
                "(\(ConfigValue.format(point.x)), \(ConfigValue.format(point.y))) lies in no room of floor \(floor)")
        }
        var power: Double?
        try s.readOptional("power", into: &power) { v throws(ConfigError) in try v.number(in: -127...0) }
        let readings = try s.required("rssi").mapping()
        var rssi: [String: Double] = [:]
        for id in readings.keys.sorted() {
            let v = readings[id]!
            guard let g = plan.gateway(id) else { throw v.error("no gateway \(id) on the plan") }
            guard g.floor == floor else {
                throw v.error("gateway \(id) stands on floor \(g.floor), not on this point's floor \(floor)")
            }
            rssi[id] = try v.number(in: -127...20)
        }
        guard !rssi.isEmpty else { throw readings.at.error("no gateway: a point needs the rssi of at least one") }
        var count = 1
        try s.read("readings", into: &count) { v throws(ConfigError) in try v.integer(in: 1...1_000_000) }
        return SitePlan.SurveyPoint(floor: floor, point: point, power: power, rssi: rssi, readings: count)
    }

    /// Metres, within `SitePosition.limit` of the origin.
    private static func coordinate(_ v: ConfigValue) throws(ConfigError) -> Double {
        try v.number(in: -SitePosition.limit...SitePosition.limit)
    }

    /// `[[x, y], …]`, at least `count` points.
    private static func points(_ v: ConfigValue, atLeast count: Int) throws(ConfigError) -> [SitePlan.Point] {
        let items = try v.list()
        guard items.count >= count else {
            throw v.error("expected at least \(count) points [x, y], found \(items.count)")
        }
        var out: [SitePlan.Point] = []
        for item in items {
            let pair = try item.list()
            guard pair.count == 2 else {
                throw item.error("expected a point [x, y] in metres, found \(pair.count) numbers")
            }
            out.append(SitePlan.Point(x: try coordinate(pair[0]), y: try coordinate(pair[1])))
        }
        return out
    }

    /// The polygon's area (shoelace), square metres.
    private static func area(_ outline: [SitePlan.Point]) -> Double {
        var twice = 0.0
        var j = outline.count - 1
        for i in outline.indices {
            twice += (outline[j].x + outline[i].x) * (outline[j].y - outline[i].y)
            j = i
        }
        return abs(twice) / 2
    }
}
