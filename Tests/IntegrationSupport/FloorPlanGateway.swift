import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import Simulation
import Vocabulary

/// One gateway of a floor plan, end to end in virtual time: the simulator's sightings go through
/// the real monitoring and ranging engine, configured as that gateway (id, floor, room), and come
/// out as the messages the gateway would publish. Tests replay a walk with it as fast as they like.
struct FloorPlanGateway: Sendable {
    let simulator: FloorPlanSimulator
    let start: Timestamp
    private var pipeline: Pipeline
    /// Seconds after `start` generated so far.
    private(set) var offset: Double = 0

    /// `configuration` supplies everything but the gateway's identity, which comes from the plan.
    init(
        plan: FloorPlan, gateway id: String, configuration: Configuration, start: Timestamp
    )
        throws(FloorPlanError)
    {
        simulator = try FloorPlanSimulator(plan: plan, gateway: id)
        var c = configuration
        c.gateway.id = id
        c.gateway.floor = simulator.gateway.floor
        c.gateway.room = simulator.gateway.room
        self.start = start
        pipeline = Pipeline(configuration: c, start: start)
    }

    /// Runs the scenario up to `until` seconds after the start; appends what the gateway publishes.
    mutating func run(until: Double, into out: inout [OutboundMessage]) {
        guard until > offset else { return }
        for s in simulator.sightings(from: offset, to: until, start: start) {
            pipeline.observe(s, into: &out)
            pipeline.advance(to: s.timestamp, into: &out)
        }
        pipeline.advance(to: start + TimeSpan(microseconds: Int64((until * 1_000_000).rounded())), into: &out)
        offset = until
    }
}
