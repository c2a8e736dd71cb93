import BeaconWire

/// The bounded table of tracked beacons: a slot array with an intrusive least-recently-seen list,
/// a hash index from identity to slot, and a flat ring of RSSI samples per slot.
///
/// Touching, inserting and removing are O(1); slots and rings are reused after eviction, so once
/// the table has grown to its working size a sighting allocates nothing.
struct BeaconTable: Sendable {
    /// Samples kept per beacon. At 10 Hz advertising this covers ≥ 3 s; older samples fall out of
    /// the time window first anyway at the usual rates (1–10 Hz, 5 s window).
    static let ringCapacity = 32  // a power of two: the ring index wraps with a mask

    private(set) var slots: ContiguousArray<BeaconSlot> = []
    private var index = IdentityIndex()
    private var free: [Int32] = []
    /// Most recently seen slot, −1 when empty.
    private(set) var head: Int32 = -1
    /// Least recently seen slot, −1 when empty.
    private(set) var tail: Int32 = -1
    private var ringRSSI: ContiguousArray<Int8> = []
    private var ringTime: ContiguousArray<Int64> = []

    var count: Int { index.count }

    func find(_ id: BeaconIdentity) -> Int32? { index.find(id) }

    subscript(_ i: Int32) -> BeaconSlot {
        get { slots[Int(i)] }
        _modify { yield &slots[Int(i)] }
    }

    private mutating func unlink(_ i: Int32) {
        let p = slots[Int(i)].prev
        let n = slots[Int(i)].next
        if p >= 0 { slots[Int(p)].next = n } else { head = n }
        if n >= 0 { slots[Int(n)].prev = p } else { tail = p }
        slots[Int(i)].prev = -1
        slots[Int(i)].next = -1
    }

    private mutating func linkAtHead(_ i: Int32) {
        slots[Int(i)].prev = -1
        slots[Int(i)].next = head
        if head >= 0 { slots[Int(head)].prev = i }
        head = i
        if tail < 0 { tail = i }
    }

    /// Marks slot `i` as the most recently seen.
    mutating func touch(_ i: Int32) {
        guard head != i else { return }
        unlink(i)
        linkAtHead(i)
    }

    /// Adds a new identity as the most recently seen and returns its slot. The caller enforces the cap.
    mutating func insert(_ slot: BeaconSlot) -> Int32 {
        var slot = slot
        slot.inUse = true
        slot.ringHead = 0
        slot.ringCount = 0
        let i: Int32
        if let reused = free.popLast() {
            i = reused
            slot.generation = slots[Int(i)].generation &+ 1
            slots[Int(i)] = slot
        } else {
            i = Int32(slots.count)
            slots.append(slot)
            ringRSSI.append(contentsOf: repeatElement(127, count: Self.ringCapacity))
            ringTime.append(contentsOf: repeatElement(0, count: Self.ringCapacity))
        }
        index.insert(slot.identity, slot: i)
        linkAtHead(i)
        return i
    }

    /// Removes slot `i` and returns what it held; stale deadlines for it are recognised by generation.
    @discardableResult
    mutating func remove(_ i: Int32) -> BeaconSlot {
        unlink(i)
        let old = slots[Int(i)]
        index.remove(old.identity)
        slots[Int(i)].inUse = false
        slots[Int(i)].generation &+= 1
        free.append(i)
        return old
    }

    /// Records a sighting of slot `i` at `t` in one place: last values, count, and the RSSI sample.
    mutating func record(_ i: Int32, _ s: BeaconSighting, at t: Timestamp) {
        let n = Int(i)
        slots[n].address = s.address
        slots[n].kind = s.kind
        slots[n].rssi = s.rssi
        slots[n].frameMeasuredPower = s.measuredPower
        slots[n].lastSeen = t
        slots[n].seenCount += 1
        if s.rssi != 127 { appendSample(i, rssi: s.rssi, at: t) }
    }

    /// Appends one RSSI sample to slot `i`'s ring, overwriting the oldest when full.
    mutating func appendSample(_ i: Int32, rssi: Int8, at t: Timestamp) {
        let head = Int(slots[Int(i)].ringHead)
        let at = Int(i) &* Self.ringCapacity &+ head
        ringRSSI[at] = rssi
        ringTime[at] = t.microseconds
        slots[Int(i)].ringHead = UInt8(truncatingIfNeeded: (head &+ 1) & (Self.ringCapacity - 1))
        if slots[Int(i)].ringCount < UInt8(Self.ringCapacity) { slots[Int(i)].ringCount &+= 1 }
    }

    /// Replaces `out` with slot `i`'s samples taken after `after` (exclusive), oldest first.
    func samples(_ i: Int32, after: Timestamp, into out: inout [Double]) {
        out.removeAll(keepingCapacity: true)
        let s = slots[Int(i)]
        let n = Int(s.ringCount)
        let base = Int(i) * Self.ringCapacity
        for k in 0..<n {
            let at = base + (Int(s.ringHead) - n + k + Self.ringCapacity) % Self.ringCapacity
            if ringTime[at] > after.microseconds { out.append(Double(ringRSSI[at])) }
        }
    }

    /// The most recent sample of slot `i`, if any.
    func lastSample(_ i: Int32) -> Int8? {
        let s = slots[Int(i)]
        guard s.ringCount > 0 else { return nil }
        return ringRSSI[Int(i) * Self.ringCapacity + (Int(s.ringHead) + Self.ringCapacity - 1) % Self.ringCapacity]
    }

    /// Slots from most to least recently seen.
    var recencyOrder: [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(count)
        var i = head
        while i >= 0 {
            out.append(i)
            i = slots[Int(i)].next
        }
        return out
    }
}
