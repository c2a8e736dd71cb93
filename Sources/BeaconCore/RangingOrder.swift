import BeaconWire

/// A ranging tick's scratch for ordering one region's list, nearest first (`BeaconMonitor`'s
/// `didRange`), kept between ticks so a tick allocates nothing. Sort keys are gathered once, so
/// comparisons never reach back into the table: the accuracy's bits (unknown = +∞, −0 as 0; a
/// non-negative double's bits order as the double does) and the entry's place in the list, whose
/// identity breaks ties. The sort moves 16-byte keys (with the identity in them, 48 bytes: twice
/// the cost).
struct RangingOrder: Sendable {
    /// (accuracy's bits, place in the list), in order once `sort` ran.
    private(set) var keys: [(UInt64, Int32)] = []
    /// The identities by place, for ties.
    private var identities: [BeaconIdentity] = []

    /// Empties both, keeping their capacity.
    mutating func reset() {
        keys.removeAll(keepingCapacity: true)
        identities.removeAll(keepingCapacity: true)
    }

    /// The list's next entry: its accuracy in metres (negative: unknown) and its identity.
    mutating func append(accuracy a: Double, identity: BeaconIdentity) {
        keys.append(((a >= 0 ? a + 0 : .infinity).bitPattern, Int32(truncatingIfNeeded: keys.count)))
        identities.append(identity)
    }

    /// Orders `keys` nearest first, ties by identity.
    mutating func sort() {
        identities.withUnsafeBufferPointer { ids in
            keys.sort { $0.0 != $1.0 ? $0.0 < $1.0 : ids[Int($0.1)] < ids[Int($1.1)] }
        }
    }
}
