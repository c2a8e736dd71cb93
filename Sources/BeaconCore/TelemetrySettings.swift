import BeaconWire
import Vocabulary

/// `telemetry:`: what the gateway publishes about each beacon's health (Eddystone-TLM battery,
/// temperature, counters; Eddystone-URL; advertised TX power; measured advertising interval).
package struct TelemetrySettings: Sendable, Equatable {
    /// Publish `<base>/<beacon>/<gw>/telemetry`.
    package var enabled: Bool = true
    /// At most one telemetry message per beacon this often (a battery crossing goes at once).
    package var interval: TimeSpan = .seconds(60)
    /// A battery below this many mV is low (0 = no threshold). It is low again only after it was
    /// back at or above the threshold plus `hysteresisMillivolts`.
    package var lowBatteryMillivolts: Int = 2500

    /// So a voltage wobbling around the threshold does not flap the alert.
    package static let hysteresisMillivolts = 50

    package init() {}
}
