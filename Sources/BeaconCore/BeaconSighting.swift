import BeaconWire
import Vocabulary

/// One decoded beacon frame as the scanner heard it: the input of `BeaconMonitor`.
///
/// The decoder (BeaconWire) produces frames; the gateway glues frame + report into a sighting.
/// Only frames with an identity (iBeacon, AltBeacon, Eddystone-UID) become sightings, and reports
/// from configured devices (`DeviceResolver`), whatever they carry.
public struct BeaconSighting: Sendable, Equatable {
    /// The frame format, as printed in messages and the scan table.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case iBeacon = "ibeacon"
        case altBeacon = "altbeacon"
        case eddystoneUID = "eddystone_uid"
        /// A configured device whose resolvable private address resolved with its IRK.
        case irk
        /// A configured device by its fixed (public or static random) address.
        case address
    }

    public var identity: BeaconIdentity
    public var kind: Kind
    public var address: BluetoothAddress
    /// Measured by our controller, dBm; 127 means "not available" (Core Spec Vol 4, Part E, §7.7.65.2).
    public var rssi: Int8
    /// Calibrated RSSI at 1 m from the frame, dBm (Eddystone already converted from 0 m, −41 dB).
    public var measuredPower: Int8?
    public var timestamp: Timestamp

    // Inlinable, and the type `public`, not `package`: the pipeline (MessageContract) makes one per
    // report, and Swift 6.3 inlines no member of a `package` type across modules (Package.swift).
    @inlinable
    public init(
        identity: BeaconIdentity, kind: Kind, address: BluetoothAddress, rssi: Int8, measuredPower: Int8?,
        timestamp: Timestamp
    ) {
        self.identity = identity
        self.kind = kind
        self.address = address
        self.rssi = rssi
        self.measuredPower = measuredPower
        self.timestamp = timestamp
    }

    /// The sighting for a decoded frame; nil for frames without an identity (Eddystone URL, TLM, EID).
    @inlinable
    public init?(beacon: Beacon, address: BluetoothAddress, rssi: Int8, timestamp: Timestamp) {
        guard let identity = beacon.identity else { return nil }
        let kind: Kind
        switch beacon {
        case .iBeacon: kind = .iBeacon
        case .altBeacon: kind = .altBeacon
        case .eddystone: kind = .eddystoneUID
        }
        self.init(
            identity: identity, kind: kind, address: address, rssi: rssi, measuredPower: beacon.measuredPowerAt1m,
            timestamp: timestamp)
    }
}
