import BeaconCore
import MessageContract
import MetricsContract
import Vocabulary

/// How messages travel from the pipeline to the broker: two outbox lanes, a held queue, and the
/// windows that keep libmosquitto's own queue short.
///
/// - Must-deliver messages (events, states, status, stats…) and, in a lane of their own holding a
///   quarter of `mqtt.outbox_limit`, proximity/ranging (`Outbox.isExpendable`). The first lane is
///   sent first and at most `unwrittenWindow` QoS 0 messages wait unwritten inside the library, so
///   an enter never queues behind a ranging tick's burst.
/// - At most `inFlightWindow` QoS ≥ 1 messages are unacknowledged at once.
/// - Every packet id handed out is remembered with what its on_publish means (`Acknowledgement`),
///   so an acknowledgement is routed to its lane, and ids the client used itself are ignored.
/// - While `holdsBack` (a replay connected to its broker) output that does not fit waits in
///   `held`, in order, instead of making the outbox drop it.
package struct DeliveryPolicy: Sendable {
    package enum Lane: Sendable, Equatable {
        case mustDeliver
        case expendable
    }

    /// What the on_publish of a packet id we handed out stands for.
    private enum Acknowledgement: Sendable {
        /// A QoS 0 message was written to the socket.
        case written
        /// The broker acknowledged a QoS ≥ 1 message of this lane.
        case delivered(Lane)
    }

    /// QoS 0 messages handed to libmosquitto and not yet written, at most.
    package static let unwrittenWindow = 16

    package let inFlightWindow: Int
    private var mustDeliver: Outbox
    private var expendables: Outbox
    private var held = FIFOQueue<OutboundMessage>()
    private var pendingAcknowledgements: [Int32: Acknowledgement] = [:]
    private var unwrittenQoS0 = 0
    /// Messages the session refused for good, in all and by lane.
    package private(set) var rejected = 0
    private var rejectedExpendable = 0
    /// Messages handed to the session (`PublishOutcome.sent`), re-sends included: the shell's
    /// report-to-publish histogram counts what one turn handed over.
    package private(set) var handedOver = 0
    /// Hold back what does not fit instead of letting the outbox's pressure rules drop it.
    package var holdsBack = false

    package init(outboxLimit: Int, inFlightWindow: Int = 64) {
        let expendableLimit = max(outboxLimit / 4, 1)
        mustDeliver = Outbox(limit: max(outboxLimit - expendableLimit, 1))
        expendables = Outbox(limit: expendableLimit)
        self.inFlightWindow = max(inFlightWindow, 1)
    }

    package static func lane(of message: OutboundMessage) -> Lane {
        Outbox.isExpendable(message) ? .expendable : .mustDeliver
    }

    /// Expendable messages `publishQueued` would hand over now beyond those already queued: what
    /// the unwritten QoS 0 window has left (the agent composes a deferred ranging tick this far).
    package var expendableRoom: Int { max(0, Self.unwrittenWindow - unwrittenQoS0 - expendables.queuedCount) }

    /// Queued plus in flight, both lanes.
    package var queuedCount: Int { mustDeliver.count + expendables.count }
    package var heldCount: Int { held.count }
    /// Nothing queued, in flight or held.
    package var isIdle: Bool { queuedCount == 0 && held.isEmpty }
    /// Both lanes' limits, added up (`mqtt.outbox_limit`).
    package var limit: Int { mustDeliver.limit + expendables.limit }

    /// Both lanes' counters, added up.
    package var counters: Outbox.Counters {
        var c = mustDeliver.counters
        let e = expendables.counters
        c.enqueued += e.enqueued
        c.published += e.published
        c.coalesced += e.coalesced
        c.dropped += e.dropped
        c.requeued += e.requeued
        return c
    }

    /// Each lane's published, dropped (coalesced, dropped, refused) and queued counts, for `/metrics`.
    package var laneMetrics: [LaneMetrics] {
        let m = mustDeliver.counters
        let e = expendables.counters
        return [
            LaneMetrics(
                lane: "must_deliver", published: m.published,
                dropped: m.dropped + m.coalesced + rejected - rejectedExpendable,
                queued: mustDeliver.count),
            LaneMetrics(
                lane: "expendable", published: e.published, dropped: e.dropped + e.coalesced + rejectedExpendable,
                queued: expendables.count),
        ]
    }

    /// Takes the pipeline's output. Holding back, a batch goes in whole if both lanes have room for
    /// it and nothing is held already; otherwise it joins `held`. Not holding back, everything goes
    /// in and the outbox's pressure rules apply.
    package mutating func enqueue(_ messages: [OutboundMessage]) {
        if holdsBack {
            if held.isEmpty, mustDeliver.count + messages.count <= mustDeliver.limit,
                expendables.count + messages.count <= expendables.limit
            {
                for message in messages { enqueue(message) }
            } else {
                held.push(contentsOf: messages)
                releaseHeld()
            }
        } else {
            releaseHeld()
            for message in messages { enqueue(message) }
        }
    }

    /// One message that bypasses the held queue (status, stats).
    package mutating func enqueue(_ message: OutboundMessage) {
        switch Self.lane(of: message) {
        case .mustDeliver: mustDeliver.enqueue(message)
        case .expendable: expendables.enqueue(message)
        }
    }

    /// Sends what the windows allow on connection `generation` (nil: not connected, only held
    /// messages move into the outbox). Returns log lines for refused messages.
    package mutating func publishQueued<Session: BrokerSession>(
        generation: UInt64?, to session: inout Session
    ) -> [LogRecord] {
        releaseHeld()
        guard let generation else { return [] }
        var logs: [LogRecord] = []
        while mustDeliver.inFlightCount < inFlightWindow, let pending = mustDeliver.next() {
            guard publish(pending, lane: .mustDeliver, generation, &session, &logs) else { return logs }
        }
        while unwrittenQoS0 < Self.unwrittenWindow, let pending = expendables.next() {
            guard publish(pending, lane: .expendable, generation, &session, &logs) else { return logs }
        }
        return logs
    }

    /// The session's on_publish for `mid` on the current connection.
    package mutating func published(mid: Int32) {
        switch pendingAcknowledgements.removeValue(forKey: mid) {
        case .written?: unwrittenQoS0 -= 1
        case .delivered(.mustDeliver)?: mustDeliver.acknowledged(mid: mid)
        case .delivered(.expendable)?: expendables.acknowledged(mid: mid)
        case nil: break  // the client's own (`online`), or a connection ago
        }
    }

    /// The connection dropped: unacknowledged messages go back to the front of their lane.
    package mutating func connectionLost() {
        mustDeliver.connectionLost()
        expendables.connectionLost()
        pendingAcknowledgements = [:]
        unwrittenQoS0 = 0
    }

    /// Hands one message to the session; false when the connection is gone.
    private mutating func publish<Session: BrokerSession>(
        _ pending: Outbox.Pending, lane: Lane, _ generation: UInt64, _ session: inout Session,
        _ logs: inout [LogRecord]
    ) -> Bool {
        switch session.publish(pending.message, generation: generation) {
        case .sent(let mid):
            handedOver += 1
            switch lane {
            case .mustDeliver: mustDeliver.sent(pending, mid: mid)
            case .expendable: expendables.sent(pending, mid: mid)
            }
            if pending.message.qos == 0 {
                unwrittenQoS0 += 1
                pendingAcknowledgements[mid] = .written
            } else {
                pendingAcknowledgements[mid] = .delivered(lane)
            }
        case .notConnected:
            switch lane {
            case .mustDeliver: mustDeliver.unsent(pending)
            case .expendable: expendables.unsent(pending)
            }
            return false
        case .failed(let reason):
            rejected += 1
            if lane == .expendable { rejectedExpendable += 1 }
            if rejected == 1 || rejected.isMultiple(of: 1000) {
                logs.append(
                    LogRecord(
                        .error, "broker client rejected a message", ["topic": pending.message.topic, "reason": reason]))
            }
        }
        return true
    }

    /// Moves held messages into the outbox while it has room (all of them when not holding back).
    private mutating func releaseHeld() {
        while let message = held.first, !holdsBack || hasRoom(for: message) {
            enqueue(message)
            _ = held.pop()
        }
    }

    private func hasRoom(for message: OutboundMessage) -> Bool {
        switch Self.lane(of: message) {
        case .mustDeliver: mustDeliver.count < mustDeliver.limit
        case .expendable: expendables.count < expendables.limit
        }
    }
}
