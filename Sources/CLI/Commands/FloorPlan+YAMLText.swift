import BeaconWire
import Simulation

extension FloorPlan {
    /// The plan as a floor-plan file that `FloorPlan.parse` reads back to an equal plan (every key,
    /// numbers in Swift's shortest round-trip form): how the campus benchmark hands its generated
    /// campus to `run --simulate --floor-plan` and keeps it for a look (BENCH_KEEP_SCRATCH=1).
    package var yamlText: String {
        var out = """
            # beacon2mqtt floor plan (docs/locator.md, "Simulating a building")
            seed: \(seed)
            uuid: \(uuid.uuidString)
            major: \(major)
            measured_power: \(measuredPower)
            path_loss_exponent: \(pathLossExponent)
            noise_db: \(noiseDB)
            floor_attenuation_db: \(floorAttenuationDB)
            floor_height: \(floorHeight)
            sensitivity_dbm: \(sensitivityDBm)
            advert_interval: \(advertInterval)
            loss: \(loss)
            gateways:

            """
        for g in gateways {
            out +=
                "  - {id: \(Self.quoted(g.id)), floor: \(Self.quoted(g.floor)), room: \(Self.quoted(g.room)), x: \(g.x), y: \(g.y)}\n"
        }
        out += "waypoints:\n"
        for w in waypoints {
            out += "  - {minor: \(w.minor), at: \(w.at), x: \(w.x), y: \(w.y), floor: \(Self.quoted(w.floor))}\n"
        }
        return out
    }

    /// A name as a YAML double-quoted scalar, so `1`, `yes` or `a: b` stay the text they are.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for c in text.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where c.value < 0x20: out += "\\x" + String(c.value, radix: 16).leftPadded(2)
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
