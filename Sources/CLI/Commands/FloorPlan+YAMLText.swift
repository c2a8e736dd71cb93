import BeaconConfig
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
                "  - {id: \(YAMLText.quoted(g.id)), floor: \(YAMLText.quoted(g.floor)), room: \(YAMLText.quoted(g.room)), x: \(g.x), y: \(g.y)}\n"
        }
        out += "waypoints:\n"
        for w in waypoints {
            out += "  - {minor: \(w.minor), at: \(w.at), x: \(w.x), y: \(w.y), floor: \(YAMLText.quoted(w.floor))}\n"
        }
        return out
    }
}
