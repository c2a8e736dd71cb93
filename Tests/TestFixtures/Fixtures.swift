import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// Shared test vocabulary for BeaconCoreTests and MessageContractTests: a manual clock is just
/// `Timestamp` values passed in.
package enum Fixtures {
    /// 2024-05-01T12:00:00.000Z.
    package static let t0 = Timestamp(microseconds: 1_714_564_800_000_000)
    package static let uuidA = BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!
    package static let uuidB = BeaconID128(uuidString: "f7826da6-4fa2-4e98-8024-bc5b71e0893e")!
    package static let address = BluetoothAddress("c0:ff:ee:00:00:01")!

    package static func at(_ seconds: Double) -> Timestamp {
        t0 + TimeSpan(microseconds: Int64((seconds * 1e6).rounded()))
    }

    package static func beacon(_ minor: UInt16, major: UInt16 = 1, uuid: BeaconID128 = uuidA) -> BeaconIdentity {
        .uuid(uuid, major: major, minor: minor)
    }

    package static func sighting(
        _ id: BeaconIdentity, at seconds: Double, rssi: Int8 = -60, power: Int8? = -59,
        address: BluetoothAddress = address
    ) -> BeaconSighting {
        BeaconSighting(
            identity: id, kind: id.scheme == .eddystone ? .eddystoneUID : .iBeacon, address: address, rssi: rssi,
            measuredPower: power, timestamp: at(seconds))
    }

    /// One region "office" = uuidA (any major/minor), per-beacon off, ranging lists off, proximity
    /// messages effectively off: the pure region-monitoring view.
    package static func regionConfig(exitTimeout: Int64 = 10) -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.monitoring.perBeacon = false
        c.monitoring.exitTimeout = .seconds(exitTimeout)
        c.regions = [BeaconRegion(name: "office", uuid: uuidA)]
        c.ranging.publish.rangingList = false
        return c
    }

    /// Gateway gw1 in the Kitchen, beacon 1 named "Keys", region "office" = uuidA, telemetry off
    /// (its entities have their own tests): what Home Assistant discovery is checked on.
    package static func discoveryConfig() -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.gateway.room = "Kitchen"
        c.beacons = [BeaconOverride(identity: beacon(1), name: "Keys")]
        c.regions = [BeaconRegion(name: "office", uuid: uuidA)]
        c.telemetry.enabled = false
        return c
    }
}
