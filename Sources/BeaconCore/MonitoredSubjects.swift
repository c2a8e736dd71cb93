import BeaconWire

/// Which retained subjects the current settings still monitor: a region by its name, a beacon when
/// per-beacon monitoring is on and it matches a region (or every beacon, with no regions), a device
/// while it is configured. A retained state of a subject outside this set was left by an older
/// configuration.
package struct MonitoredSubjects: Sendable {
    private let regionNames: Set<String>
    private let index: RegionIndex
    private let perBeacon: Bool
    private let devices: Set<BeaconIdentity>

    package init(_ settings: MonitorSettings) {
        regionNames = Set(settings.regions.map(\.name))
        index = RegionIndex(settings.regions)
        perBeacon = settings.monitoring.perBeacon
        devices = Set(settings.devices.map(\.identity))
    }

    package func monitors(_ subject: RestoredState.Subject) -> Bool {
        switch subject {
        case .region(let name): return regionNames.contains(name)
        case .beacon(let id) where id.scheme == .device: return devices.contains(id)
        case .beacon(let id): return perBeacon && (index.isEmpty || index.matchList(for: id) != RegionIndex.none)
        }
    }
}
