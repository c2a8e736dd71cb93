import BeaconWire

/// Beacon identities and RSSI found in one live HCI packet, for `scan`.
enum ScanSightings {
    struct Sighting: Sendable, Equatable {
        var identity: BeaconIdentity
        var rssi: Int
    }

    /// One sighting per advertising report that carries an identified beacon (iBeacon, AltBeacon,
    /// Eddystone-UID) and an RSSI (127 = not available is skipped). Undecodable packets yield none.
    static func decode(_ packet: CapturedPacket) -> [Sighting] {
        var out: [Sighting] = []
        packet.bytes.withUnsafeBytes { raw in
            _ = try? HCIPacketDecoder.forEachReport(in: raw, indicator: .present) { header, data in
                guard header.rssi != 127, let identity = BeaconDecoder.firstIdentifiedBeacon(inAD: data)?.identity
                else { return }
                out.append(Sighting(identity: identity, rssi: Int(header.rssi)))
            }
        }
        return out
    }
}
