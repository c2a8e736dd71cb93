import BeaconWire

/// Finds the regions a beacon identity belongs to with at most three hash lookups, however many
/// regions there are. There is no 20-region limit (CoreLocation has one).
///
/// Every region is filed under its most specific key: (UUID), (UUID, major) or (UUID, major, minor);
/// for Eddystone (namespace) or (namespace, instance). At build time each key gets its complete
/// match list — its own regions plus those of every less specific key above it — so a lookup takes
/// the most specific key present for the identity and is done. A tracked beacon keeps its list's
/// number, so the per-sighting path walks exactly the regions it matches and compares nothing.
struct RegionIndex: Sendable {
    private struct Key: Hashable {
        var scheme: BeaconIdentity.Scheme
        var high: UInt64
        var low: UInt64
        /// Which identifiers take part: 0 = UUID/namespace only, 1 = + major, 2 = + major and minor,
        /// 3 = + instance (Eddystone).
        var depth: UInt8
        var major: UInt16
        var minor: UInt16
        var instance: UInt64
    }

    /// Eddystone namespace = bytes 0…9: all of `high` and the top 16 bits of `low`.
    static let namespaceMaskLow: UInt64 = 0xFFFF_0000_0000_0000
    static let instanceMask: UInt64 = 0x0000_FFFF_FFFF_FFFF

    /// Match list l is `members[listStart[l]..<listStart[l + 1]]`, region indices ascending.
    private var members: [Int32] = []
    private var listStart: [Int] = [0]
    private var lists: [Key: Int32] = [:]
    private(set) var regions: [BeaconRegion] = []

    /// The list number meaning "no region matches".
    static let none: Int32 = -1

    init(_ regions: [BeaconRegion]) {
        self.regions = regions
        var own: [Key: [Int32]] = [:]
        for (i, r) in regions.enumerated() { own[Self.key(of: r), default: []].append(Int32(i)) }
        // Each key's full list: its own regions and those of every less specific key that exists.
        for key in own.keys.sorted(by: { $0.depth < $1.depth }) {
            var matched: [Int32] = []
            for ancestor in Self.ancestors(of: key) { matched += own[ancestor] ?? [] }
            matched.sort()
            lists[key] = Int32(listStart.count - 1)
            members += matched
            listStart.append(members.count)
        }
    }

    private static func key(of r: BeaconRegion) -> Key {
        let high = r.uuid.high
        switch r.scheme {
        case .uuid:
            let depth: UInt8 = r.major == nil ? 0 : (r.minor == nil ? 1 : 2)
            return Key(
                scheme: .uuid, high: high, low: r.uuid.low, depth: depth, major: r.major ?? 0,
                minor: depth == 2 ? r.minor ?? 0 : 0, instance: 0)
        case .eddystone:
            let instance = r.instance.map { $0 & instanceMask }
            return Key(
                scheme: .eddystone, high: high, low: r.uuid.low & namespaceMaskLow, depth: instance == nil ? 0 : 3,
                major: 0, minor: 0, instance: instance ?? 0)
        case .device:
            // The configuration builds no region of devices.
            preconditionFailure("a region of the device scheme")
        }
    }

    /// `key` and every less specific key of the same UUID or namespace, most specific first.
    private static func ancestors(of key: Key) -> [Key] {
        var out = [key]
        var k = key
        while k.depth > 0 {
            if k.depth == 3 {
                k.depth = 0
                k.instance = 0
            } else {
                k.depth -= 1
                if k.depth == 1 { k.minor = 0 } else { k.major = 0 }
            }
            out.append(k)
        }
        return out
    }

    var isEmpty: Bool { regions.isEmpty }

    /// The number of the list of regions `identity` matches: CoreLocation's "beacons must match all of
    /// the identifiers you specify", unspecified identifiers being wildcards. `none` when none matches.
    func matchList(for identity: BeaconIdentity) -> Int32 {
        if lists.isEmpty { return Self.none }
        let id = identity.id
        switch identity.scheme {
        case .uuid:
            var k = Key(
                scheme: .uuid, high: id.high, low: id.low, depth: 2, major: identity.major, minor: identity.minor,
                instance: 0)
            if let l = lists[k] { return l }
            k.depth = 1
            k.minor = 0
            if let l = lists[k] { return l }
            k.depth = 0
            k.major = 0
            return lists[k] ?? Self.none
        case .eddystone:
            var k = Key(
                scheme: .eddystone, high: id.high, low: id.low & Self.namespaceMaskLow, depth: 3, major: 0, minor: 0,
                instance: id.low & Self.instanceMask)
            if let l = lists[k] { return l }
            k.depth = 0
            k.instance = 0
            return lists[k] ?? Self.none
        case .device:
            // Regions are beacon identifiers; a device is in none of them.
            return Self.none
        }
    }

    /// Positions in the member table of list `l`'s regions (empty for `none`); read with `region(at:)`.
    func positions(_ l: Int32) -> Range<Int> {
        l < 0 ? 0..<0 : listStart[Int(l)]..<listStart[Int(l) + 1]
    }

    /// The region index at a position of `positions(_:)`.
    func region(at position: Int) -> Int32 { members[position] }
}
