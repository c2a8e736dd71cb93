import BeaconCore
import MessageContract

/// The ranging results a tick left uncomposed (`Pipeline.defersRanging`): `didRangeBeacon` and
/// `didRange` events, composed from `head` on. At most one tick's (a new tick composes what the
/// last one left), so a plain array emptied when composed is bounded, and composing borrows each
/// event in place.
struct DeferredRanging: Sendable {
    private(set) var results: [MonitoringEvent] = []
    private var head = 0

    /// Results waiting to be composed.
    var count: Int { results.count - head }

    mutating func append(_ result: MonitoringEvent) { results.append(result) }

    /// Composes up to `limit` results, oldest first, and empties the list once all are composed.
    mutating func compose(upTo limit: Int, with composer: inout MessageComposer, into out: inout [OutboundMessage]) {
        let end = head + min(limit, results.count - head)
        guard end > head else { return }
        // Borrowed in place, as `Pipeline.composeEvents` does: an event is as large as its largest case.
        results.withUnsafeBufferPointer { buffer in
            for i in head..<end { composer.compose(buffer[i], into: &out) }
        }
        head = end
        if head == results.count {
            results.removeAll(keepingCapacity: true)
            head = 0
        }
    }
}
