import BeaconCore

extension MonitorSettings {
    /// What the monitor takes of the whole configuration.
    package init(_ c: Configuration) {
        self.init(
            regions: c.regions, beacons: c.beacons, devices: c.devices, monitoring: c.monitoring, ranging: c.ranging,
            rssiOffset: c.gateway.rssiOffset)
    }
}
