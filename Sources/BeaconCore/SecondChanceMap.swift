/// A dictionary with a fixed capacity: inserting into a full map evicts the entry inserted longest
/// ago that was not touched since it last came to the front (second-chance FIFO, so a key in use
/// survives a flood of new ones). Amortised O(1) per operation; memory bounded by `capacity`.
struct SecondChanceMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        var touched: Bool
    }

    let capacity: Int
    private var entries: [Key: Entry] = [:]
    private var order = FIFOQueue<Key>()

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { entries.count }

    /// The value for `key`, without touching it.
    subscript(key: Key) -> Value? { entries[key]?.value }

    /// Runs `body` on the value for `key` and marks it used; nil when there is none.
    mutating func modify<R>(_ key: Key, _ body: (inout Value) -> R) -> R? {
        guard let index = entries.index(forKey: key) else { return nil }
        entries.values[index].touched = true
        return body(&entries.values[index].value)
    }

    /// Runs `body` on the value for `key`, inserting `make()` first (evicting when full).
    mutating func upsert<R>(_ key: Key, _ make: () -> Value, _ body: (inout Value) -> R) -> R {
        if let r = modify(key, body) { return r }
        while entries.count >= capacity { evictOne() }
        var value = make()
        let r = body(&value)
        entries[key] = Entry(value: value, touched: false)
        order.push(key)
        return r
    }

    /// Runs `body` on every value without marking any used (for upkeep, not use).
    mutating func updateAll(_ body: (Key, inout Value) -> Void) {
        var index = entries.startIndex
        while index != entries.endIndex {
            body(entries.keys[index], &entries.values[index].value)
            index = entries.index(after: index)
        }
    }

    /// Removes `key`; its place in the eviction order is skipped when it comes round.
    mutating func remove(_ key: Key) { entries[key] = nil }

    mutating func removeAll() {
        entries = [:]
        order.removeAll()
    }

    private mutating func evictOne() {
        while let key = order.pop() {
            guard let entry = entries[key] else { continue }
            if entry.touched {
                entries[key]!.touched = false
                order.push(key)
            } else {
                entries[key] = nil
                return
            }
        }
    }
}
