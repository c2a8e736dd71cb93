import AgentCore
import BeaconCore
import BeaconWire
import Glibc
import Platform
import Synchronization
import Vocabulary

/// One gateway's view of a floor plan, in real time, as HCI LE Advertising Report bytes (the same
/// builder as `SimulatedSource`), so `run` exercises the real decoder. The scenario is a function of
/// the wall clock — it restarts at every whole multiple of its duration since the Unix epoch — so
/// gateway processes started separately agree on where the beacons are without talking to each
/// other (their clocks NTP-synchronised, as the locator needs anyway). Given a `start` (Unix
/// seconds), the scenario begins then instead and repeats from it, so gateways started together
/// show the walk from its beginning (`make demo-floors`); before it, they hear nothing.
///
/// For `run --simulate --floor-plan FILE --as-gateway ID`: the gateway's id, floor and room come
/// from the plan (`FloorPlanSource.gateway`).
package final class FloorPlanSource: PacketSource {
    package let simulator: FloorPlanSimulator
    package let loop: Bool
    /// When the scenario begins (Unix seconds); nil: at every multiple of its duration.
    package let start: Double?
    private let stopped = StopSignal()

    package init(plan: FloorPlan, gateway id: String, loop: Bool = true, start: Double? = nil) throws(FloorPlanError) {
        simulator = try FloorPlanSimulator(plan: plan, gateway: id)
        self.loop = loop
        self.start = start
    }

    /// The plan's entry for this gateway: apply its id, floor and room to the configuration.
    package var gateway: FloorPlan.Gateway { simulator.gateway }

    package func stop() { stopped.stop() }

    package func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws {
        let plan = simulator.plan
        let period = max(plan.duration, 1)
        // The walk follows true time; the packets carry the gateway's clock (a test's skew on it).
        let skew = Double(SteadyWallClock.testSkew.microseconds) / 1e6
        let now = SteadyWallClock.seconds() - skew
        let origin = start ?? 0
        var epoch = origin + max(((now - origin) / period).rounded(.down), 0) * period
        var offset = max(now - epoch, 0)
        // A start still ahead: nothing is heard until then.
        stopped.sleep(seconds: epoch - now)
        let step = 0.1
        while !stopped.isStopped {
            if offset >= period {
                guard loop else { break }
                epoch += period
                offset = 0
            }
            let until = min(offset + step, period)
            // One hand-over per step.
            let batch = simulator.adverts(from: offset, to: until).map { a in
                let minor = a.minor
                let bytes = SimulatedSource.advertisingReport(
                    address: [0xC0, 0xFF, 0xEE, 0x00, UInt8(minor >> 8), UInt8(minor & 0xFF)], major: plan.major,
                    minor: minor, rssi: a.rssi)
                return CapturedPacket(
                    timestamp: Timestamp(microseconds: Int64((epoch + a.offset + skew) * 1_000_000)), bytes: bytes)
            }
            if !batch.isEmpty { deliver(.packets(batch)) }
            offset = until
            stopped.sleep(seconds: epoch + offset + skew - SteadyWallClock.seconds())
        }
        deliver(.end)
    }
}
