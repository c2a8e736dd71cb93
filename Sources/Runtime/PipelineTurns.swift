import AgentCore
import BeaconWire
import Platform
import Vocabulary

/// What a turn of the thread shell's loop needs: the core, its broker session, what carries out
/// its actions and what runs after each turn. The loop's thread holds it; while that thread waits
/// on an empty queue, a source thread may borrow it and run its own event's turn
/// (`AgentEventQueue.borrowForSource`), so a hand-over costs no wake-up of the loop's thread
/// (woken for each one, it woke 20 times a second for a replay at capture speed and hundreds of
/// times for a live HCI source at 3,000 reports/s).
final class PipelineTurns<Core: AgentMachine>: @unchecked Sendable {
    // Invariant for @unchecked Sendable: every stored var is used by one thread at a time: the
    // loop's thread, except while a source thread holds the queue's `AgentEventQueue.Lend` (from
    // `borrowForSource` until `returnFromSource` consumes it), during which the loop's thread waits
    // inside `takeStamped`. The source thread's turn takes the `Lend` (`sourceTurn`), so it cannot
    // run without one, and the `Lend` cannot be copied or returned twice.
    var core: Core
    var session: BrokerPortSession
    private let perform: (inout Core, [AgentAction]) -> Void
    private let turned: (inout Core, MonotonicInstant?) -> Void

    /// - Parameters:
    ///   - perform: carries out the core's actions (it may feed the core again, e.g. a reload).
    ///   - turned: after every turn (systemd's watchdog, published counts, `/metrics`), with when
    ///     the turn's source event was posted. It takes the core `inout` only to read it in place:
    ///     passed by value, the generic core was copied every turn (a retain of each of its
    ///     references; callgrind: 3 % of the pipeline thread at 3,000 reports/s).
    init(
        _ core: Core, session: BrokerPortSession, perform: @escaping (inout Core, [AgentAction]) -> Void,
        turned: @escaping (inout Core, MonotonicInstant?) -> Void = { _, _ in }
    ) {
        self.core = core
        self.session = session
        self.perform = perform
        self.turned = turned
    }

    /// Deadlines and timers due now, and their actions.
    func tick() {
        core.tick(at: MonotonicClock.now(), wall: WallClock.now(), &session)
        perform(&core, core.takeActions())
    }

    /// One input and its actions.
    func handle(_ input: AgentInput) {
        core.handle(input, at: MonotonicClock.now(), wall: WallClock.now(), &session)
        perform(&core, core.takeActions())
    }

    /// The end of a turn, with when its source event was posted (nil for none).
    func endTurn(posted: MonotonicInstant?) { turned(&core, posted) }

    /// What the loop waits for after a turn: whether it ended, whether the core takes source
    /// events, and until when. Read through `inout`: a read of the generic core's properties through
    /// this class's stored property copied the whole core first (callgrind: 3,500 instructions a
    /// read, three a turn).
    var waitState: (termination: AgentTermination?, takesSourceEvents: Bool, nextWake: MonotonicInstant) {
        Self.waitState(of: &core)
    }

    private static func waitState(
        of core: inout Core
    ) -> (termination: AgentTermination?, takesSourceEvents: Bool, nextWake: MonotonicInstant) {
        (core.termination, core.takesSourceEvents, core.nextWake)
    }

    /// A source event's whole turn on the thread that borrowed these turns and holds their `lend`;
    /// what the loop's thread needs to know to go on waiting or not.
    func sourceTurn(
        _ event: SourceEvent, posted: MonotonicInstant, holding lend: borrowing AgentEventQueue.Lend
    ) -> AgentEventQueue.Return {
        handle(.source(event))
        endTurn(posted: posted)
        let state = waitState
        return AgentEventQueue.Return(
            nextWake: state.nextWake, ended: state.termination != nil, takesSourceEvents: state.takesSourceEvents)
    }
}
