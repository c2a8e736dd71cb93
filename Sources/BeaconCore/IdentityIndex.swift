import BeaconWire

/// Identity → slot map for `BeaconTable`: open addressing with linear probing and backward-shift
/// deletion (no tombstones), at most half full.
///
/// It replaces `Dictionary` on the per-sighting path, where `Hasher`'s calls were a third of the
/// cost. The hash is a keyed multiply-fold (wyhash's "mum") over the identity's three words; the key
/// comes from the process-random `Hasher` seed, so crafted identities cannot target collisions
/// across runs, and the table is bounded by monitoring.max_tracked anyway.
struct IdentityIndex: Sendable {
    private struct Entry: Sendable {
        var identity: BeaconIdentity
        /// −1 = empty.
        var slot: Int32
    }

    private var entries: ContiguousArray<Entry>
    private var mask: Int
    private(set) var count = 0
    private let seed: UInt64

    init() {
        var h = Hasher()
        h.combine(0x6265_6163_6F6E as UInt64)
        seed = UInt64(bitPattern: Int64(h.finalize())) | 1
        mask = 15
        entries = ContiguousArray(repeating: Self.empty, count: 16)
    }

    private static let empty = Entry(identity: .uuid(BeaconID128(high: 0, low: 0), major: 0, minor: 0), slot: -1)

    @inline(__always)
    private static func mum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let r = a.multipliedFullWidth(by: b)
        return r.high ^ r.low
    }

    @inline(__always)
    private func home(_ id: BeaconIdentity) -> Int {
        let tail = UInt64(id.scheme.rawValue) << 32 | UInt64(id.major) << 16 | UInt64(id.minor)
        let a = Self.mum(id.id.high ^ seed, id.id.low ^ 0xE703_7ED1_A0B4_28DB)
        let b = Self.mum(a ^ tail, seed ^ 0x8EBC_6AF0_9C88_C6E3)
        return Int(truncatingIfNeeded: b) & mask
    }

    func find(_ id: BeaconIdentity) -> Int32? {
        var p = home(id)
        while true {
            let e = entries[p]
            if e.slot < 0 { return nil }
            if e.identity == id { return e.slot }
            p = (p &+ 1) & mask
        }
    }

    /// Adds `id` (which must be absent).
    mutating func insert(_ id: BeaconIdentity, slot: Int32) {
        if (count + 1) * 2 > entries.count { grow() }
        var p = home(id)
        while entries[p].slot >= 0 { p = (p &+ 1) & mask }
        entries[p] = Entry(identity: id, slot: slot)
        count += 1
    }

    /// Removes `id` if present, shifting later entries of its probe run back.
    mutating func remove(_ id: BeaconIdentity) {
        var p = home(id)
        while true {
            if entries[p].slot < 0 { return }
            if entries[p].identity == id { break }
            p = (p &+ 1) & mask
        }
        var hole = p
        var q = p
        while true {
            q = (q &+ 1) & mask
            if entries[q].slot < 0 { break }
            let h = home(entries[q].identity)
            // Move q into the hole unless its home lies cyclically in (hole, q].
            let inRange = hole <= q ? (h > hole && h <= q) : (h > hole || h <= q)
            if !inRange {
                entries[hole] = entries[q]
                hole = q
            }
        }
        entries[hole] = Self.empty
        count -= 1
    }

    private mutating func grow() {
        let old = entries
        entries = ContiguousArray(repeating: Self.empty, count: old.count * 2)
        mask = entries.count - 1
        count = 0
        for e in old where e.slot >= 0 { insert(e.identity, slot: e.slot) }
    }
}
