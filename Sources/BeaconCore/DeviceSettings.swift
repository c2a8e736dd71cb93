import BeaconWire
import Vocabulary

/// A phone, watch or tag tracked like a beacon (`devices:`), known by its identity resolving key
/// (its advertised address rotates) or by a fixed public or static random address.
package struct DeviceSettings: Sendable, Equatable {
    package enum Identification: Sendable, Equatable {
        case irk(IdentityResolvingKey)
        case address(BluetoothAddress)
    }

    /// Used in topics (`<base>/devices/<name>/<gw>/…`); validated as a topic level, unique.
    package var name: String
    package var identification: Identification
    /// Calibrated RSSI at 1 m; distance.default_measured_power when nil.
    package var measuredPower: Int?
    package var exitTimeout: TimeSpan?
    /// Where the key was read from (`irk_file`), for the permission warning; nil when inline.
    package var irkFile: String?

    package init(
        name: String, identification: Identification, measuredPower: Int? = nil, exitTimeout: TimeSpan? = nil,
        irkFile: String? = nil
    ) {
        self.name = name
        self.identification = identification
        self.measuredPower = measuredPower
        self.exitTimeout = exitTimeout
        self.irkFile = irkFile
    }

    /// What monitoring keys the device by, whatever address it advertises from.
    package var identity: BeaconIdentity { .device(named: name) }

    /// How sightings of it are marked, and what payloads print as `"identity"`.
    package var kind: BeaconSighting.Kind {
        switch identification {
        case .irk: .irk
        case .address: .address
        }
    }

    /// Name and calibration as a beacon override, so monitoring treats the device as a beacon.
    package var override: BeaconOverride {
        BeaconOverride(identity: identity, name: name, measuredPower: measuredPower, exitTimeout: exitTimeout)
    }
}

extension BeaconIdentity {
    /// The device scheme's identity of the device called `name`: two FNV-1a 64-bit hashes of its
    /// UTF-8 bytes (different offset bases), so a topic's name level maps back to the identity
    /// without a table, in any process. The configuration refuses two names with one identity.
    package static func device(named name: String) -> BeaconIdentity {
        var a: UInt64 = 0xCBF2_9CE4_8422_2325
        var b: UInt64 = 0x6C62_272E_07BB_0142
        for byte in name.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        // Length folded in last, so names that are prefixes of each other differ in b too.
        b = (b ^ UInt64(name.utf8.count)) &* 0x0000_0100_0000_01B3
        return .device(key: BeaconID128(high: a, low: b))
    }
}
