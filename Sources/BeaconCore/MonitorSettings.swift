/// What `BeaconMonitor` needs of the configuration: regions, beacon overrides, monitoring and
/// ranging, and the gateway's RSSI offset (ranging filters and estimates distance from offset RSSI).
/// Topics, payload fields and the broker are the message contract's business.
package struct MonitorSettings: Sendable, Equatable {
    package var regions: [BeaconRegion]
    package var beacons: [BeaconOverride]
    package var monitoring: MonitoringSettings
    package var ranging: RangingSettings
    /// gateway.rssi_offset, added to every RSSI this gateway measures.
    package var rssiOffset: Double

    package init(
        regions: [BeaconRegion] = [], beacons: [BeaconOverride] = [], monitoring: MonitoringSettings = .init(),
        ranging: RangingSettings = .init(), rssiOffset: Double = 0
    ) {
        self.regions = regions
        self.beacons = beacons
        self.monitoring = monitoring
        self.ranging = ranging
        self.rssiOffset = rssiOffset
    }

    package init(_ c: Configuration) {
        self.init(
            regions: c.regions, beacons: c.beacons, monitoring: c.monitoring, ranging: c.ranging,
            rssiOffset: c.gateway.rssiOffset)
    }

    /// A measured RSSI with the gateway offset applied; nil for 127 ("not available").
    package func rssi(_ raw: Int8) -> Double? { raw == 127 ? nil : Double(raw) + rssiOffset }
}
