import BeaconWire

/// Beacon identities and RSSI found in one live HCI packet, for `scan`.
enum ScanSightings {
    struct Sighting: Sendable {
        var identity: BeaconIdentity
        var rssi: Int
    }

    /// Interim: empty until BeaconWire's advertising-report decoder is merged.
    static func decode(_ packet: CapturedPacket) -> [Sighting] { [] }
}
