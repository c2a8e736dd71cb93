/// A first-in first-out queue over an array with a moving head, amortised O(1) per push and pop.
///
/// Popped elements are released: the consumed front is cut off once it is both more than 64
/// elements and more than half the storage. An array with a head index that is only reset when the
/// queue runs empty keeps every element ever pushed for as long as a steady producer keeps it from
/// running empty (a replay at `--speed max` did exactly that with its packet batches).
///
/// Run empty, it keeps its storage for the next burst only up to `keptBytes`: the agent's queue of
/// inputs takes a ranging tick's acknowledgements at once (hundreds), and kept, that storage was
/// 0.15 MiB of a gateway's resident memory for the few milliseconds a second it is used.
///
/// Inlinable, so the agent's queues (in another module) get specialised code rather than generic
/// calls through metadata on every packet batch. `public`, not `package`: Swift 6.3 serialises no
/// member of a `package` type, `@inlinable` or not (see Package.swift, BeaconWire).
public struct FIFOQueue<Element>: Sendable where Element: Sendable {
    @usableFromInline var items: [Element] = []
    @usableFromInline var head = 0

    @inlinable public init() {}

    @inlinable public var count: Int { items.count - head }
    @inlinable public var isEmpty: Bool { head == items.count }
    /// Elements held in storage, popped or not (for tests of the bound).
    @inlinable public var storedCount: Int { items.count }
    /// Elements the storage has room for (for tests of what is kept).
    @inlinable public var storedCapacity: Int { items.capacity }
    /// The most storage kept, in bytes, when the queue runs empty.
    @inlinable public static var keptBytes: Int { 16 * 1024 }
    @inlinable public var first: Element? { isEmpty ? nil : items[head] }

    @inlinable public mutating func push(_ value: Element) { items.append(value) }

    @inlinable public mutating func push<S: Sequence>(contentsOf values: S) where S.Element == Element {
        items.append(contentsOf: values)
    }

    @inlinable public mutating func pop() -> Element? {
        guard head < items.count else { return nil }
        let value = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: items.capacity * MemoryLayout<Element>.stride <= Self.keptBytes)
            head = 0
        } else if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return value
    }

    /// Keeps only the queued elements that satisfy `predicate`, in order.
    @inlinable public mutating func keep(where predicate: (Element) -> Bool) {
        items = items[head...].filter(predicate)
        head = 0
    }

    @inlinable public mutating func removeAll() {
        items.removeAll()
        head = 0
    }
}
