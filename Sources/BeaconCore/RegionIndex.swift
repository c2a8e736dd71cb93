import BeaconWire

/// Finds the regions a beacon identity belongs to in O(1) expected time: regions are bucketed by
/// scheme and UUID (Eddystone: namespace), and only a bucket's few major/minor/instance
/// constraints are then compared. There is no 20-region limit (CoreLocation has one).
struct RegionIndex: Sendable {
    private struct Key: Hashable {
        var scheme: BeaconIdentity.Scheme
        var high: UInt64
        var low: UInt64
    }

    /// Eddystone namespace = bytes 0…9: all of `high` and the top 16 bits of `low`.
    static let namespaceMaskLow: UInt64 = 0xFFFF_0000_0000_0000
    static let instanceMask: UInt64 = 0x0000_FFFF_FFFF_FFFF

    private var buckets: [[Int32]] = []
    private var keys: [Key: Int32] = [:]
    private(set) var regions: [BeaconRegion] = []

    init(_ regions: [BeaconRegion]) {
        self.regions = regions
        for (i, r) in regions.enumerated() {
            let key = Self.key(scheme: r.scheme, id: r.uuid)
            if let b = keys[key] {
                buckets[Int(b)].append(Int32(i))
            } else {
                keys[key] = Int32(buckets.count)
                buckets.append([Int32(i)])
            }
        }
    }

    private static func key(scheme: BeaconIdentity.Scheme, id: BeaconID128) -> Key {
        scheme == .eddystone
            ? Key(scheme: scheme, high: id.high, low: id.low & namespaceMaskLow)
            : Key(scheme: scheme, high: id.high, low: id.low)
    }

    var isEmpty: Bool { regions.isEmpty }

    /// The bucket of candidate regions for `identity`, or −1.
    func bucket(for identity: BeaconIdentity) -> Int32 {
        keys[Self.key(scheme: identity.scheme, id: identity.id)] ?? -1
    }

    /// Candidate region indices of a bucket (empty for −1).
    func candidates(_ bucket: Int32) -> ArraySlice<Int32> {
        bucket < 0 ? [] : buckets[Int(bucket)][...]
    }

    /// Whether region `r` (a candidate of the identity's bucket) matches it: CoreLocation's
    /// "beacons must match all of the identifiers you specify"; nil constraints are wildcards.
    func matches(_ r: Int32, _ identity: BeaconIdentity) -> Bool {
        let region = regions[Int(r)]
        switch region.scheme {
        case .uuid:
            if let major = region.major, major != identity.major { return false }
            if let minor = region.minor, minor != identity.minor { return false }
            return true
        case .eddystone:
            if let instance = region.instance, instance & Self.instanceMask != identity.id.low & Self.instanceMask {
                return false
            }
            return true
        }
    }

    /// Whether any region matches `identity` within `bucket`.
    func matchesAny(_ bucket: Int32, _ identity: BeaconIdentity) -> Bool {
        for r in candidates(bucket) where matches(r, identity) { return true }
        return false
    }

    /// All regions matching `identity`, in configuration order (allocates; not for the hot path).
    func matching(_ identity: BeaconIdentity) -> [Int32] {
        candidates(bucket(for: identity)).filter { matches($0, identity) }
    }
}
