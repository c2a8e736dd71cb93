import BeaconConfig
import BeaconCore
import Settings
import Simulation

extension FloorPlanSource {
    /// For `run --simulate --floor-plan FILE --as-gateway ID`: loads the plan and makes the
    /// configuration that gateway (id, floor, room). A bad file is a `ConfigError` (exit 78, like a
    /// bad configuration); a gateway the plan lacks, a `FloorPlanError`.
    static func load(
        path: String, gateway id: String, start: Double? = nil, configuration: inout Configuration
    ) throws -> FloorPlanSource {
        let source = try FloorPlanSource(plan: try FloorPlan.load(path: path), gateway: id, start: start)
        configuration.gateway.id = source.gateway.id
        configuration.gateway.floor = source.gateway.floor
        configuration.gateway.room = source.gateway.room
        return source
    }
}
