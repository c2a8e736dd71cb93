import AgentCore
import BeaconCore
import BeaconWire
import Glibc
import Platform
import Vocabulary

/// The pipeline thread's inbox, with two lanes. Packets are bounded: a fast source (a replay at
/// `--speed max`) waits for the pipeline instead of growing memory. Control events (signals, MQTT,
/// end of source) never block their producer, so the MQTT network thread and the signal thread
/// cannot be stalled by a busy source, and they are taken first, except that after a control
/// event a waiting source event goes next: while a ranging tick drains, each acknowledgement
/// lets the core compose and publish the next slice, and a stream of them would otherwise hold
/// an enter's packet until the whole burst was out (it arrived last, 4–14 ms late).
///
/// A batch (`.packets`, or `post(contentsOf:)`'s control events: what the MQTT network thread read
/// in one pass) is one hand-over: one lock and at most one wake-up for all its packets or events.
/// Nobody is woken who is not waiting, so a busy pipeline thread costs its producers no syscall;
/// and the taker and a source waiting for room wait on conditions of their own, so the stream of
/// acknowledgements the MQTT thread posts does not wake a blocked source each time (at
/// `--speed max` that was thousands of futile wake-ups a second).
///
/// A source thread that finds the taker waiting on an empty queue borrows the loop's turns instead
/// of posting (`borrowForSource`, which hands it a `Lend`): it runs its event's turn itself and
/// gives them back (`returnFromSource`, which consumes the `Lend`), and the taker, which does not
/// return while they are lent, is woken only if that turn moved its deadline earlier or ended the
/// loop. So a hand-over to an idle pipeline costs no wake-up of its thread, and events keep their
/// order: nothing is queued while it runs.
package final class AgentEventQueue: @unchecked Sendable {
    // Invariant for @unchecked Sendable: every stored var is read and written only while
    // `condition` is locked.
    private let condition = ConditionLock(conditions: 2)
    /// `condition`'s conditions: events arrived (the taker waits), room in the packet lane (the source waits).
    private static let arrived = 0
    private static let room = 1
    /// A FIFO that releases taken events: at `--speed max` the source lane never runs empty. Each
    /// event carries when it was posted (the report-to-publish histogram starts there).
    private var source = FIFOQueue<(input: AgentInput, posted: MonotonicInstant)>()
    /// Packets in `source` (a batch counts its packets).
    private var queuedPackets = 0
    private var control = FIFOQueue<AgentInput>()
    private var closed = false
    /// The last event taken was a control event: a waiting source event goes before the next one.
    private var sourceTurn = false
    /// Threads waiting for events (the pipeline thread), and for room in the packet lane (the source).
    private var takers = 0
    private var blockedSources = 0
    /// Producer posts to the control lane (`controlHandOvers`).
    private var handOvers = 0
    /// What the waiting taker waits for: its deadline and whether it takes source events.
    private var takerDeadline = MonotonicInstant(nanoseconds: 0)
    private var takerIncludesSource = false
    private var lending = Lending()
    /// Packets the source lane holds before `postFromSource` waits (a batch may overshoot it once).
    package let packetCapacity: Int

    /// The lend of the taker's turns to a source thread, as the lock sees it.
    private struct Lending {
        /// A `Lend` is out: the turns are the source thread's until `returnFromSource`.
        var isOut = false
        /// The taker was woken while the turns were lent (an event, or its deadline passed) and
        /// waits for them back.
        var awaitingReturn = false
        /// A returned turn moved the deadline earlier or ended the loop: the taker returns to tick.
        var recheck = false
        /// Source events whose turn their own thread ran (`sourceTurnsRun`).
        var turnsRun = 0
    }

    /// The taker's turns, lent to the source thread that holds it. Only `borrowForSource` makes
    /// one; a source turn needs it (`PipelineTurns.sourceTurn`), and `returnFromSource` consumes
    /// it, so the turns go back exactly once. It holds nothing: the compiler keeps the hand-over's
    /// order, and no instruction of the hand-over is spent on it.
    package struct Lend: ~Copyable {
        fileprivate init() {}
    }

    package init(packetCapacity: Int = 1024) { self.packetCapacity = max(packetCapacity, 1) }

    /// Control-lane hand-overs so far: each `post` or `post(contentsOf:)` took the lock once and
    /// woke the taker at most once (tests count them).
    package var controlHandOvers: Int {
        condition.lock()
        defer { condition.unlock() }
        return handOvers
    }

    /// Source events whose turn ran on the source's thread so far (tests count them).
    package var sourceTurnsRun: Int {
        condition.lock()
        defer { condition.unlock() }
        return lending.turnsRun
    }

    /// What a source thread's turn leaves for the taker: when the loop must tick next, whether it
    /// ended, and whether the core still takes source events (a full outbox stops them).
    package struct Return: Sendable {
        package var nextWake: MonotonicInstant
        package var ended: Bool
        package var takesSourceEvents: Bool
        package init(nextWake: MonotonicInstant, ended: Bool, takesSourceEvents: Bool = true) {
            self.nextWake = nextWake
            self.ended = ended
            self.takesSourceEvents = takesSourceEvents
        }
    }

    /// Lends the taker's turns to the calling source thread when the taker waits for source events
    /// and nothing is queued: with the `Lend`, the caller runs its event's turn now and then gives
    /// it to `returnFromSource` with what the turn left. Nil: post the event as usual.
    package func borrowForSource() -> Lend? {
        condition.lock()
        defer { condition.unlock() }
        guard takers > 0, takerIncludesSource, !lending.isOut, !lending.recheck, !closed, control.isEmpty,
            source.isEmpty
        else { return nil }
        lending.isOut = true
        lending.turnsRun += 1
        return Lend()
    }

    /// Gives the turns back, consuming their `Lend`; wakes the taker if it must tick sooner than
    /// it planned, the loop ended, the core stopped taking source events (the taker then waits
    /// without them, and nothing is lent), or events arrived meanwhile.
    package func returnFromSource(_ lend: consuming Lend, after turn: Return) {
        condition.lock()
        lending.isOut = false
        if !turn.takesSourceEvents { takerIncludesSource = false }
        if turn.ended || turn.nextWake < takerDeadline || !turn.takesSourceEvents { lending.recheck = true }
        if takers > 0, lending.recheck || lending.awaitingReturn || !control.isEmpty || !source.isEmpty {
            condition.broadcast(Self.arrived)
        }
        condition.unlock()
    }

    /// Queues a control event; never blocks.
    package func post(_ event: AgentInput) {
        condition.lock()
        control.push(event)
        handOvers += 1
        if takers > 0 { condition.broadcast(Self.arrived) }
        condition.unlock()
    }

    /// Queues control events in order, as one hand-over (what the MQTT thread read in one pass);
    /// never blocks.
    package func post<Events: Sequence<AgentInput>>(contentsOf events: Events) {
        condition.lock()
        for event in events { control.push(event) }
        handOvers += 1
        if takers > 0 { condition.broadcast(Self.arrived) }
        condition.unlock()
    }

    /// Queues a source event (or the source's end), in order, waiting while the packet lane is
    /// full. False once closed.
    @discardableResult
    package func postFromSource(_ event: AgentInput) -> Bool {
        let posted = MonotonicClock.now()
        condition.lock()
        defer { condition.unlock() }
        while !closed, queuedPackets >= packetCapacity {
            blockedSources += 1
            condition.wait(Self.room)
            blockedSources -= 1
        }
        guard !closed else { return false }
        source.push((event, posted))
        queuedPackets += Self.packetCount(event)
        if takers > 0 { condition.broadcast(Self.arrived) }
        return true
    }

    private static func packetCount(_ event: AgentInput) -> Int {
        switch event {
        case .source(.packets(let batch)): batch.count
        default: 0
        }
    }

    /// Stops accepting source events and releases a waiting source.
    package func close() {
        condition.lock()
        closed = true
        source.removeAll()
        queuedPackets = 0
        condition.broadcast(Self.arrived)
        condition.broadcast(Self.room)
        condition.unlock()
    }

    /// Events held in the source lane's storage, taken or not (for tests of the bound).
    package var storedSourceEvents: Int {
        condition.lock()
        defer { condition.unlock() }
        return source.storedCount
    }

    /// The next event (control first; source events only when `includeSource`), or nil at `deadline`.
    package func take(includeSource: Bool, until deadline: MonotonicInstant) -> AgentInput? {
        takeStamped(includeSource: includeSource, until: deadline)?.input
    }

    /// `take`, with when a source event was posted (nil for control events).
    package func takeStamped(
        includeSource: Bool, until deadline: MonotonicInstant
    ) -> (input: AgentInput, posted: MonotonicInstant?)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            // Lent turns are the source thread's until returned, whatever arrives or falls due.
            if !lending.isOut {
                if lending.recheck {
                    lending.recheck = false
                    return nil
                }
                if includeSource, sourceTurn, let event = takeSource() { return event }
                if let event = control.pop() {
                    sourceTurn = true
                    return (event, nil)
                }
                if includeSource, let event = takeSource() { return event }
            }
            takers += 1
            takerDeadline = deadline
            takerIncludesSource = includeSource
            var signalled = true
            if lending.isOut {
                lending.awaitingReturn = true
                condition.wait(Self.arrived)
                lending.awaitingReturn = false
            } else {
                signalled = condition.wait(until: deadline, Self.arrived)
            }
            takers -= 1
            if !signalled, !lending.isOut { return nil }
        }
    }

    /// The next source event, waking a source that waited for room; `condition` is locked.
    private func takeSource() -> (input: AgentInput, posted: MonotonicInstant?)? {
        guard let event = source.pop() else { return nil }
        sourceTurn = false
        let wasFull = queuedPackets >= packetCapacity
        queuedPackets -= Self.packetCount(event.input)
        if wasFull, queuedPackets < packetCapacity, blockedSources > 0 { condition.broadcast(Self.room) }
        return (event.input, event.posted)
    }
}
