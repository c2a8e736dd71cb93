import BeaconWire

/// What `BeaconMonitor` needs of the configuration: regions, beacon overrides, monitoring and
/// ranging, and the gateway's RSSI offset (ranging filters and estimates distance from offset RSSI).
/// Topics, payload fields and the broker are the message contract's business.
///
/// Configured devices are monitored as beacons of the device scheme: `beacons` ends with one
/// override per device (its name, measured power and exit timeout), and `devices` lists them.
package struct MonitorSettings: Sendable, Equatable {
    package var regions: [BeaconRegion]
    /// The beacon overrides, then one per device.
    package var beacons: [BeaconOverride]
    package var devices: [DeviceSettings]
    package var monitoring: MonitoringSettings
    package var ranging: RangingSettings
    /// gateway.rssi_offset, added to every RSSI this gateway measures.
    package var rssiOffset: Double

    package init(
        regions: [BeaconRegion] = [], beacons: [BeaconOverride] = [], devices: [DeviceSettings] = [],
        monitoring: MonitoringSettings = .init(), ranging: RangingSettings = .init(), rssiOffset: Double = 0
    ) {
        self.regions = regions
        self.beacons = beacons + devices.map(\.override)
        self.devices = devices
        self.monitoring = monitoring
        self.ranging = ranging
        self.rssiOffset = rssiOffset
    }

    /// Devices are always monitored one by one (they match no region); beacons with
    /// monitoring.per_beacon.
    package func monitorsIndividually(_ id: BeaconIdentity) -> Bool {
        monitoring.perBeacon || id.scheme == .device
    }

    /// A measured RSSI with the gateway offset applied; nil for 127 ("not available").
    package func rssi(_ raw: Int8) -> Double? { raw == 127 ? nil : Double(raw) + rssiOffset }
}
