import BeaconWire
import Vocabulary

/// The bounded table of tracked beacons: a slot array with an intrusive least-recently-seen list,
/// a hash index from identity to slot, and a flat ring of RSSI samples per slot (their times and
/// their values in two arrays, so a tick reads the values of its window as bytes in a row).
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
    /// Slot i's samples are entries i·32 ..< (i + 1)·32 of both, in time order around the ring.
    private var ringTimes: ContiguousArray<Int64> = []
    private var ringValues: ContiguousArray<Int8> = []

    var count: Int { index.count }

    func find(_ id: BeaconIdentity) -> Int32? { index.find(id) }

    /// Read in place: a getter returned a copy of the whole slot, which a tick's `range` paid a
    /// `memcpy` for to read two of its fields.
    subscript(_ i: Int32) -> BeaconSlot {
        _read { yield slots[Int(i)] }
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
            ringTimes.append(contentsOf: repeatElement(0, count: Self.ringCapacity))
            ringValues.append(contentsOf: repeatElement(127, count: Self.ringCapacity))
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

    /// Records a sighting of slot `i` at `t`: moves it to the head of the recency list, updates its
    /// last values and count, and appends the RSSI sample (127 = not available is skipped).
    ///
    /// This is the per-sighting path, so it works on the slot storage through one buffer pointer
    /// (one uniqueness check instead of one per field); all indices are the table's own links.
    mutating func record(_ i: Int32, _ s: BeaconSighting, at t: Timestamp) {
        var head = self.head
        var tail = self.tail
        var sampleAt = -1
        slots.withUnsafeMutableBufferPointer { b in
            let n = Int(i)
            if head != i {
                let p = b[n].prev
                let next = b[n].next
                if p >= 0 { b[Int(p)].next = next } else { head = next }
                if next >= 0 { b[Int(next)].prev = p } else { tail = p }
                b[n].prev = -1
                b[n].next = head
                if head >= 0 { b[Int(head)].prev = i }
                head = i
                if tail < 0 { tail = i }
            }
            b[n].address = s.address
            b[n].kind = s.kind
            b[n].rssi = s.rssi
            b[n].frameMeasuredPower = s.measuredPower
            b[n].lastSeen = t
            b[n].seenCount &+= 1
            if s.rssi != 127 {
                let h = Int(b[n].ringHead)
                sampleAt = n &* Self.ringCapacity &+ h
                b[n].ringHead = UInt8(truncatingIfNeeded: (h &+ 1) & (Self.ringCapacity - 1))
                if b[n].ringCount < UInt8(Self.ringCapacity) { b[n].ringCount &+= 1 }
            }
        }
        self.head = head
        self.tail = tail
        if sampleAt >= 0 {
            ringTimes[sampleAt] = t.microseconds
            ringValues[sampleAt] = s.rssi
        }
    }

    /// Appends one RSSI sample to slot `i`'s ring, overwriting the oldest when full.
    mutating func appendSample(_ i: Int32, rssi: Int8, at t: Timestamp) {
        let head = Int(slots[Int(i)].ringHead)
        ringTimes[Int(i) &* Self.ringCapacity &+ head] = t.microseconds
        ringValues[Int(i) &* Self.ringCapacity &+ head] = rssi
        slots[Int(i)].ringHead = UInt8(truncatingIfNeeded: (head &+ 1) & (Self.ringCapacity - 1))
        if slots[Int(i)].ringCount < UInt8(Self.ringCapacity) { slots[Int(i)].ringCount &+= 1 }
    }

    /// Calls `body` with slot `i`'s samples taken after `after` (exclusive), oldest first, in a
    /// buffer on the stack that `body` may reorder (a filter sorts them in place).
    ///
    /// Samples are in time order (the monitor's time never goes backwards), so the window is the
    /// newest `k` of them for the largest `k` whose oldest is after `after`: found by bisection,
    /// then its values are copied in at most two runs (walking it sample by sample, a time test
    /// and a copy each, cost about 300 instructions a beacon and tick).
    func withSamples<R>(_ i: Int32, after: Timestamp, _ body: (UnsafeMutableBufferPointer<Int8>) -> R) -> R {
        let n = Int(slots[Int(i)].ringCount)
        let head = Int(slots[Int(i)].ringHead)
        let base = Int(i) * Self.ringCapacity
        let mask = Self.ringCapacity - 1
        let start = after.microseconds
        var lower = 0
        var upper = n
        ringTimes.withUnsafeBufferPointer { times in
            // Invariant: the `lower` newest are in the window, the (upper + 1)-th newest is not.
            while lower < upper {
                let k = (lower &+ upper &+ 1) / 2
                if times[base &+ ((head &- k) & mask)] > start { lower = k } else { upper = k &- 1 }
            }
        }
        let count = lower
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: Self.ringCapacity) { out in
            ringValues.withUnsafeBufferPointer { values in
                // The window is ring entries first ..< first + count, wrapping at 32: both runs lie
                // within slot i's 32 entries (count ≤ n ≤ 32), and fit `out` (32 bytes).
                let first = (head &- count) & mask
                let run = min(count, Self.ringCapacity &- first)
                let source = values.baseAddress! + base
                out.baseAddress!.update(from: source + first, count: run)
                (out.baseAddress! + run).update(from: source, count: count &- run)
            }
            return body(UnsafeMutableBufferPointer(rebasing: out[0..<count]))
        }
    }

    /// The most recent sample of slot `i`, if any.
    func lastSample(_ i: Int32) -> Int8? {
        let s = slots[Int(i)]
        guard s.ringCount > 0 else { return nil }
        return ringValues[Int(i) * Self.ringCapacity + (Int(s.ringHead) + Self.ringCapacity - 1) % Self.ringCapacity]
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
