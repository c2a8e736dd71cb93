import BeaconWire
import Vocabulary

/// Per-beacon settings: a friendly name and calibration.
package struct BeaconOverride: Sendable, Equatable {
    package var identity: BeaconIdentity
    package var name: String?
    /// Calibrated RSSI at 1 m, overriding what the frame advertises.
    package var measuredPower: Int?
    package var exitTimeout: TimeSpan?

    package init(identity: BeaconIdentity, name: String? = nil, measuredPower: Int? = nil, exitTimeout: TimeSpan? = nil)
    {
        self.identity = identity
        self.name = name
        self.measuredPower = measuredPower
        self.exitTimeout = exitTimeout
    }
}
