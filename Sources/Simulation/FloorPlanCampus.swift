/// Every gateway of a floor plan at once, for one process that simulates a whole campus
/// (`beacon2mqtt-bench campus`): each beacon's position is worked out once per advert and shared by
/// all the gateways, instead of once per gateway. What each gateway hears is exactly what its own
/// `FloorPlanSimulator` (`run --simulate --floor-plan FILE --as-gateway ID`) would produce: the
/// same formula and the same noise, keyed by (seed, gateway, beacon, advert).
package struct FloorPlanCampus: Sendable {
    package let plan: FloorPlan
    /// One per simulated gateway, in the plan's order.
    package let gateways: [FloorPlanSimulator]
    private let paths: FloorPlanPaths

    /// `only`: the plan's gateways (by index) this campus simulates, all by default; a host that
    /// runs a slice of the campus takes its slice (storeys still come from the whole plan).
    package init(plan: FloorPlan, only: Range<Int>? = nil) {
        self.plan = plan
        let paths = FloorPlanPaths(plan)
        self.paths = paths
        gateways = plan.gateways[only ?? plan.gateways.indices].map {
            FloorPlanSimulator(plan: plan, gateway: $0, paths: paths)
        }
    }

    /// Adverts heard in [from, to) seconds after the start, one list per simulated gateway (in
    /// the plan's order), each in time order.
    package func adverts(from: Double, to: Double) -> [[FloorPlanSimulator.Advert]] {
        var out = [[FloorPlanSimulator.Advert]](repeating: [], count: gateways.count)
        paths.forEachAdvert(from: from, to: to, interval: plan.advertInterval) { _, minor, k, t, p in
            for g in gateways.indices {
                let gateway = gateways[g]
                if let advert = gateway.hear(minor: minor, advert: k, at: t, mean: gateway.meanRSSI(from: p)) {
                    out[g].append(advert)
                }
            }
        }
        return out
    }
}
