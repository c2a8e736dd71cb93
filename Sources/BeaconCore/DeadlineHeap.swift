/// A binary min-heap of monitoring deadlines (exit timeouts, initial-state determination).
///
/// Entries are never updated in place: a sighting only moves the subject's `lastSeen`, and when a
/// deadline pops the owner checks whether it is still current and, if not, pushes the later one
/// ("lazy re-push"). A generation number invalidates entries of evicted or replaced subjects.
/// So a sighting costs no heap work, and `advance` pays O(log n) per deadline that is due.
struct DeadlineHeap: Sendable {
    enum Subject: UInt8, Sendable { case beacon, region }

    struct Entry: Sendable {
        var due: Int64
        var subject: Subject
        var index: Int32
        var generation: UInt32

        /// Orders by time, then regions before beacons, then index, so ties are deterministic.
        func precedes(_ o: Entry) -> Bool {
            if due != o.due { return due < o.due }
            if subject != o.subject { return subject == .region }
            return index < o.index
        }
    }

    private(set) var entries: ContiguousArray<Entry> = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }
    var top: Entry? { entries.first }

    mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    mutating func push(_ e: Entry) {
        entries.append(e)
        var i = entries.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard entries[i].precedes(entries[parent]) else { break }
            entries.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Entry? {
        guard let first = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var i = 0
            let n = entries.count
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < n && entries[l].precedes(entries[m]) { m = l }
                if r < n && entries[r].precedes(entries[m]) { m = r }
                if m == i { break }
                entries.swapAt(i, m)
                i = m
            }
        }
        return first
    }
}
