import BeaconCore
import MessageContract

/// The agent's bounded store of messages on their way to the broker; the MQTT session that outlives
/// connections. It holds messages while the broker is unreachable, drains them in order once
/// connected, and tracks QoS ≥ 1 publishes until the broker acknowledges them (PUBACK, MQTT 3.1.1
/// §4.3.2), so a connection lost mid-flight re-queues them and an outage loses no enter or exit.
///
/// The bound (`mqtt.outbox_limit`) counts queued and in-flight messages. While there is room nothing
/// is dropped. Under pressure, in this order:
/// 1. a proximity/ranging message that a newer one on the same topic supersedes is coalesced away;
/// 2. the oldest proximity/ranging message is dropped (an incoming one is dropped when none is queued);
/// 3. a retained message that a newer retained one on the same topic supersedes is coalesced away
///    (the broker would keep only the newest anyway);
/// 4. the oldest queued message is dropped.
/// Every coalesced or dropped message is counted.
///
/// Pure and single-threaded: the agent's `DeliveryPolicy` owns two of them (see there).
package struct Outbox: Sendable {
    /// A message taken out for publishing: hand it back with `sent`, or `unsent` if it could not go.
    package struct Pending: Sendable, Equatable {
        /// Enqueue order; re-queued messages keep their place.
        package let sequence: UInt64
        package let message: OutboundMessage
    }

    package struct Counters: Sendable, Equatable {
        /// Accepted by `enqueue`.
        package var enqueued = 0
        /// Written (QoS 0) or acknowledged (QoS ≥ 1).
        package var published = 0
        /// Removed under pressure because a newer message on the same topic superseded it.
        package var coalesced = 0
        /// Removed under pressure without a newer replacement (or refused on arrival).
        package var dropped = 0
        /// In-flight messages put back because the connection was lost.
        package var requeued = 0
        package init() {}
    }

    /// Most messages held, queued plus in flight.
    package let limit: Int
    package private(set) var counters = Counters()

    private var slots: [Pending?] = []
    private var head = 0
    /// Sequence number of `slots[0]`.
    private var firstSequence: UInt64 = 0
    private var nextSequence: UInt64 = 0
    private var liveSlots = 0
    /// Re-queued or handed-back messages, in sequence order; they go before `slots`.
    private var retry: [Pending] = []
    private var inFlight: [Int32: Pending] = [:]
    /// Newest queued message per topic, for proximity/ranging and retained messages.
    private var newestByTopic: [String: UInt64] = [:]
    private var supersededExpendable = FIFOQueue<UInt64>()
    private var supersededRetained = FIFOQueue<UInt64>()
    private var expendable = FIFOQueue<UInt64>()

    package init(limit: Int) { self.limit = max(limit, 1) }

    /// Messages waiting to be sent.
    package var queuedCount: Int { liveSlots + retry.count }
    /// QoS ≥ 1 messages sent and not yet acknowledged.
    package var inFlightCount: Int { inFlight.count }
    package var count: Int { queuedCount + inFlightCount }
    package var isEmpty: Bool { count == 0 }

    /// Adds a message, making room under pressure as described on the type.
    package mutating func enqueue(_ message: OutboundMessage) {
        if count >= limit, !makeRoom(for: message) {
            counters.dropped += 1
            return
        }
        let sequence = nextSequence
        nextSequence += 1
        slots.append(Pending(sequence: sequence, message: message))
        liveSlots += 1
        counters.enqueued += 1
        let expendableKind = Self.isExpendable(message)
        if expendableKind { expendable.push(sequence) }
        if expendableKind || message.retain {
            if let older = newestByTopic.updateValue(sequence, forKey: message.topic) {
                if expendableKind { supersededExpendable.push(older) } else { supersededRetained.push(older) }
            }
        }
        // The candidate queues only shrink under pressure; forget sent messages so they stay bounded.
        let bound = 2 * limit + 64
        for list in CandidateList.allCases where with(list, { $0.count }) > bound {
            let (first, start, live) = (firstSequence, head, slots)
            with(list) { $0.keep { Self.isQueued($0, first: first, head: start, slots: live) } }
        }
    }

    /// Where `makeRoom` looks for a victim.
    private enum CandidateList: CaseIterable { case supersededExpendable, expendable, supersededRetained }

    /// Applies `body` to one candidate list in place (a switch, so the array is never copied).
    private mutating func with<T>(_ list: CandidateList, _ body: (inout FIFOQueue<UInt64>) -> T) -> T {
        switch list {
        case .supersededExpendable: body(&supersededExpendable)
        case .expendable: body(&expendable)
        case .supersededRetained: body(&supersededRetained)
        }
    }

    private static func isQueued(_ sequence: UInt64, first: UInt64, head: Int, slots: [Pending?]) -> Bool {
        guard sequence >= first else { return false }
        let index = Int(sequence - first)
        return index >= head && index < slots.count && slots[index] != nil
    }

    /// The oldest message to send, or nil when nothing is queued.
    package mutating func next() -> Pending? {
        if !retry.isEmpty { return retry.removeFirst() }
        while head < slots.count {
            let taken = slots[head]
            slots[head] = nil
            head += 1
            if let taken {
                liveSlots -= 1
                if newestByTopic[taken.message.topic] == taken.sequence {
                    newestByTopic[taken.message.topic] = nil
                }
                compactIfNeeded()
                return taken
            }
        }
        compactIfNeeded()
        return nil
    }

    /// The message went out with packet id `mid`: QoS 0 is done, QoS ≥ 1 waits for `acknowledged`.
    package mutating func sent(_ pending: Pending, mid: Int32) {
        if pending.message.qos > 0 {
            inFlight[mid] = pending
        } else {
            counters.published += 1
        }
    }

    /// The message could not be sent (no connection); it keeps its place at the front.
    package mutating func unsent(_ pending: Pending) {
        let index = retry.firstIndex { $0.sequence > pending.sequence } ?? retry.count
        retry.insert(pending, at: index)
    }

    /// The broker acknowledged packet `mid` (libmosquitto's on_publish).
    package mutating func acknowledged(mid: Int32) {
        if inFlight.removeValue(forKey: mid) != nil { counters.published += 1 }
    }

    /// The connection dropped: every unacknowledged message goes back to the front, in order.
    package mutating func connectionLost() {
        guard !inFlight.isEmpty else { return }
        counters.requeued += inFlight.count
        retry = (retry + inFlight.values).sorted { $0.sequence < $1.sequence }
        inFlight = [:]
    }

    // MARK: - Pressure

    /// The one expendable rule: proximity and ranging give way under pressure (and, in
    /// `DeliveryPolicy`, travel in a lane of their own).
    package static func isExpendable(_ message: OutboundMessage) -> Bool {
        message.kind == .proximity || message.kind == .ranging
    }

    private mutating func makeRoom(for message: OutboundMessage) -> Bool {
        if removeFirstLive(from: .supersededExpendable) {
            counters.coalesced += 1
            return true
        }
        if removeFirstLive(from: .expendable) {
            counters.dropped += 1
            return true
        }
        if Self.isExpendable(message) { return false }
        if removeFirstLive(from: .supersededRetained) {
            counters.coalesced += 1
            return true
        }
        if !retry.isEmpty {
            retry.removeFirst()
            counters.dropped += 1
            return true
        }
        if next() != nil {
            counters.dropped += 1
            return true
        }
        return false
    }

    /// Pops sequence numbers until one is still queued, and removes that message.
    private mutating func removeFirstLive(from list: CandidateList) -> Bool {
        while let sequence = with(list, { $0.pop() }) {
            guard Self.isQueued(sequence, first: firstSequence, head: head, slots: slots) else { continue }
            let index = Int(sequence - firstSequence)
            guard let victim = slots[index] else { continue }
            slots[index] = nil
            liveSlots -= 1
            if newestByTopic[victim.message.topic] == sequence { newestByTopic[victim.message.topic] = nil }
            return true
        }
        return false
    }

    private mutating func compactIfNeeded() {
        if head == slots.count {
            firstSequence += UInt64(head)
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024, head * 2 > slots.count {
            firstSequence += UInt64(head)
            slots.removeFirst(head)
            head = 0
        }
    }
}
