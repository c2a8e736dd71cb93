import BeaconWire

/// What the decode benchmark keeps of each report: counts and a checksum over every decoded field,
/// so the optimiser cannot discard the decoding, and so the Python peer can prove it decoded the
/// same beacons (the peer computes the identical checksum).
struct DecodeTally: Equatable {
    var reports = 0
    var iBeacons = 0
    var checksum: UInt64 = 0

    /// Checksum contribution of one iBeacon: the fields every decoder must extract.
    /// Defined identically in scripts/bench_peer.py.
    mutating func add(address: UInt64, rssi: Int8, uuid: BeaconID128, major: UInt16, minor: UInt16, power: Int8) {
        iBeacons += 1
        var h = checksum &* 31
        h &+= address ^ uuid.high ^ uuid.low
        h &+= UInt64(major) << 16 | UInt64(minor)
        h &+= UInt64(bitPattern: Int64(rssi)) &+ UInt64(bitPattern: Int64(power)) &* 3
        checksum = h
    }

    /// Folds the counts into the checksum for the optimiser barrier.
    var digest: UInt64 { checksum &+ UInt64(reports) &* 1_000_003 &+ UInt64(iBeacons) }
}
