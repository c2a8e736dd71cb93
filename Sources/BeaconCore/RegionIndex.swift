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

    /// A region's identifiers without its strings, so matching copies no reference-counted values.
    private struct Constraint {
        var scheme: BeaconIdentity.Scheme
        /// −1 = any.
        var major: Int32
        var minor: Int32
        /// Eddystone instance; nil = any.
        var instance: UInt64?
    }

    /// Region indices grouped by bucket: bucket b owns `members[bucketStart[b]..<bucketStart[b + 1]]`.
    private var members: [Int32] = []
    private var bucketStart: [Int] = [0]
    private var constraints: [Constraint] = []
    private var keys: [Key: Int32] = [:]
    private(set) var regions: [BeaconRegion] = []

    init(_ regions: [BeaconRegion]) {
        self.regions = regions
        var grouped: [[Int32]] = []
        for (i, r) in regions.enumerated() {
            constraints.append(
                Constraint(
                    scheme: r.scheme, major: r.major.map(Int32.init) ?? -1, minor: r.minor.map(Int32.init) ?? -1,
                    instance: r.instance.map { $0 & Self.instanceMask }))
            let key = Self.key(scheme: r.scheme, id: r.uuid)
            if let b = keys[key] {
                grouped[Int(b)].append(Int32(i))
            } else {
                keys[key] = Int32(grouped.count)
                grouped.append([Int32(i)])
            }
        }
        for g in grouped {
            members += g
            bucketStart.append(members.count)
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

    /// Positions in `members` of a bucket's candidates (empty for −1); read them with `member(_:)`.
    func candidates(_ bucket: Int32) -> Range<Int> {
        bucket < 0 ? 0..<0 : bucketStart[Int(bucket)]..<bucketStart[Int(bucket) + 1]
    }

    func member(_ position: Int) -> Int32 { members[position] }

    /// Whether region `r` (a candidate of the identity's bucket) matches it: CoreLocation's
    /// "beacons must match all of the identifiers you specify"; nil constraints are wildcards.
    func matches(_ r: Int32, _ identity: BeaconIdentity) -> Bool {
        let c = constraints[Int(r)]
        switch c.scheme {
        case .uuid:
            return (c.major < 0 || c.major == Int32(identity.major))
                && (c.minor < 0 || c.minor == Int32(identity.minor))
        case .eddystone:
            return c.instance.map { $0 == identity.id.low & Self.instanceMask } ?? true
        }
    }

    /// Whether any region matches `identity` within `bucket`.
    func matchesAny(_ bucket: Int32, _ identity: BeaconIdentity) -> Bool {
        for p in candidates(bucket) where matches(members[p], identity) { return true }
        return false
    }
}
