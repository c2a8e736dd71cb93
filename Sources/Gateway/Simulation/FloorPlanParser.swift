import BeaconWire

/// Reads the floor-plan YAML subset: `# comments`, top-level `key: value` scalars, and the block
/// sequences `gateways:` and `waypoints:` whose items are one-line flow mappings `- {k: v, …}`.
/// That is plain YAML, so any YAML tool reads the same file; the subset keeps the simulator free of
/// the configuration loader.
enum FloorPlanParser {
    static func parse(_ text: String) throws(FloorPlanError) -> FloorPlan {
        var plan = FloorPlan()
        var section: String? = nil
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let content = stripComment(String(raw))
            let trimmed = content.trimmingSpaces
            if trimmed.isEmpty { continue }
            if content.first != " ", content.first != "-" {
                guard let colon = trimmed.firstIndex(of: ":") else {
                    throw FloorPlanError(line: line, message: "expected 'key: value'")
                }
                let key = String(trimmed[..<colon]).trimmingSpaces
                let value = unquote(String(trimmed[trimmed.index(after: colon)...]).trimmingSpaces)
                if value.isEmpty {
                    guard key == "gateways" || key == "waypoints" else {
                        throw FloorPlanError(line: line, message: "unknown section '\(key)'")
                    }
                    section = key
                } else {
                    section = nil
                    try setScalar(&plan, key, value, line: line)
                }
                continue
            }
            guard let section, trimmed.hasPrefix("-") else {
                throw FloorPlanError(line: line, message: "list item outside 'gateways:' or 'waypoints:'")
            }
            let fields = try flowMapping(String(trimmed.dropFirst()).trimmingSpaces, line: line)
            if section == "gateways" {
                plan.gateways.append(try gateway(fields, line: line))
            } else {
                plan.waypoints.append(try waypoint(fields, line: line))
            }
        }
        guard !plan.gateways.isEmpty else { throw FloorPlanError(line: 0, message: "no gateways") }
        guard Set(plan.gateways.map(\.id)).count == plan.gateways.count else {
            throw FloorPlanError(line: 0, message: "gateway ids must be unique")
        }
        plan.waypoints.sort { ($0.minor, $0.at) < ($1.minor, $1.at) }
        return plan
    }

    private static func setScalar(_ plan: inout FloorPlan, _ key: String, _ value: String, line: Int)
        throws(FloorPlanError)
    {
        func number() throws(FloorPlanError) -> Double {
            guard let v = Double(value), v.isFinite else {
                throw FloorPlanError(line: line, message: "\(key): expected a number, got '\(value)'")
            }
            return v
        }
        switch key {
        case "seed":
            guard let v = UInt64(value) else { throw FloorPlanError(line: line, message: "seed: expected an integer") }
            plan.seed = v
        case "uuid":
            guard let v = BeaconID128(uuidString: value) else {
                throw FloorPlanError(line: line, message: "uuid: expected a UUID")
            }
            plan.uuid = v
        case "major":
            guard let v = UInt16(value) else { throw FloorPlanError(line: line, message: "major: expected 0…65535") }
            plan.major = v
        case "measured_power": plan.measuredPower = Int(try number())
        case "path_loss_exponent": plan.pathLossExponent = try number()
        case "noise_db": plan.noiseDB = try number()
        case "floor_attenuation_db": plan.floorAttenuationDB = try number()
        case "floor_height": plan.floorHeight = try number()
        case "sensitivity_dbm": plan.sensitivityDBm = try number()
        case "advert_interval":
            plan.advertInterval = try number()
            guard plan.advertInterval >= 0.02 else {
                throw FloorPlanError(line: line, message: "advert_interval: at least 0.02 s (BLE's 20 ms minimum)")
            }
        case "loss":
            plan.loss = try number()
            guard (0..<1).contains(plan.loss) else { throw FloorPlanError(line: line, message: "loss: 0 ≤ loss < 1") }
        default: throw FloorPlanError(line: line, message: "unknown key '\(key)'")
        }
    }

    private static func gateway(_ f: [String: String], line: Int) throws(FloorPlanError) -> FloorPlan.Gateway {
        try require(f, ["id", "floor", "room", "x", "y"], line: line)
        guard let x = Double(f["x"]!), let y = Double(f["y"]!) else {
            throw FloorPlanError(line: line, message: "x and y must be numbers")
        }
        return .init(id: f["id"]!, floor: f["floor"]!, room: f["room"]!, x: x, y: y)
    }

    private static func waypoint(_ f: [String: String], line: Int) throws(FloorPlanError) -> FloorPlan.Waypoint {
        try require(f, ["minor", "at", "x", "y", "floor"], line: line)
        guard let minor = UInt16(f["minor"]!), let at = Double(f["at"]!), at >= 0, let x = Double(f["x"]!),
            let y = Double(f["y"]!)
        else { throw FloorPlanError(line: line, message: "minor, at (≥ 0), x and y must be numbers") }
        return .init(minor: minor, at: at, x: x, y: y, floor: f["floor"]!)
    }

    private static func require(_ f: [String: String], _ keys: [String], line: Int) throws(FloorPlanError) {
        for k in f.keys.sorted() where !keys.contains(k) {
            throw FloorPlanError(line: line, message: "unknown key '\(k)' (expected \(keys.joined(separator: ", ")))")
        }
        for k in keys where f[k] == nil { throw FloorPlanError(line: line, message: "missing '\(k)'") }
    }

    /// `{a: 1, b: "x"}` → ["a": "1", "b": "x"].
    private static func flowMapping(_ text: String, line: Int) throws(FloorPlanError) -> [String: String] {
        guard text.hasPrefix("{"), text.hasSuffix("}") else {
            throw FloorPlanError(line: line, message: "expected a flow mapping '{key: value, …}'")
        }
        var out: [String: String] = [:]
        for part in text.dropFirst().dropLast().split(separator: ",") {
            guard let colon = part.firstIndex(of: ":") else {
                throw FloorPlanError(line: line, message: "expected 'key: value' in '\(part)'")
            }
            let key = String(part[..<colon]).trimmingSpaces
            guard out[key] == nil else { throw FloorPlanError(line: line, message: "duplicate key '\(key)'") }
            out[key] = unquote(String(part[part.index(after: colon)...]).trimmingSpaces)
        }
        return out
    }

    private static func stripComment(_ s: String) -> String {
        var quote: Character? = nil
        for (i, c) in zip(s.indices, s) {
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#", i == s.startIndex || s[s.index(before: i)] == " " {
                return String(s[..<i])
            }
        }
        return s
    }

    private static func unquote(_ s: String) -> String {
        if s.count >= 2, let f = s.first, f == "\"" || f == "'", s.last == f { return String(s.dropFirst().dropLast()) }
        return s
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
