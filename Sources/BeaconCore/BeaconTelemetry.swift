import BeaconWire
import Vocabulary

/// What one gateway knows about one beacon's health when its telemetry is due: the latest
/// Eddystone-TLM and Eddystone-URL heard from the beacon's advertiser address, the TX power its
/// identity frame advertises, and the advertising interval measured here.
package struct BeaconTelemetry: Sendable, Equatable {
    package var identity: BeaconIdentity
    package var name: String?
    /// The address the identity frame last came from.
    package var address: BluetoothAddress
    /// As advertised: at 1 m for iBeacon and AltBeacon, at 0 m for Eddystone (`txPowerAtMetres`).
    package var txPower: Int8?
    package var txPowerAtMetres: Int
    /// The shortest gap between two sightings of the identity frame since the last message, counting
    /// gaps of 20 ms to 10.24 s only (legacy advInterval's range, Core Spec Vol 6, Part B, §4.4.2.2.1:
    /// a shorter gap is one advertising event heard twice, a longer one a beacon out of range); the
    /// last measured value when no gap was measured.
    package var interval: TimeSpan?
    /// The latest unencrypted TLM attached to the beacon, and when it was heard.
    package var tlm: EddystoneTLM?
    package var tlmSeen: Timestamp?
    /// The latest Eddystone-URL from the beacon's address.
    package var url: String?
    /// Battery below `telemetry.low_battery_mv`; nil when no battery voltage is known or no
    /// threshold is set.
    package var lowBattery: Bool?
    /// When the message is due.
    package var timestamp: Timestamp

    package init(
        identity: BeaconIdentity, name: String?, address: BluetoothAddress, txPower: Int8?, txPowerAtMetres: Int,
        interval: TimeSpan?, tlm: EddystoneTLM?, tlmSeen: Timestamp?, url: String?, lowBattery: Bool?,
        timestamp: Timestamp
    ) {
        self.identity = identity
        self.name = name
        self.address = address
        self.txPower = txPower
        self.txPowerAtMetres = txPowerAtMetres
        self.interval = interval
        self.tlm = tlm
        self.tlmSeen = tlmSeen
        self.url = url
        self.lowBattery = lowBattery
        self.timestamp = timestamp
    }
}
