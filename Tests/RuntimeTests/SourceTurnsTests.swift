import AgentCore
import BeaconWire
import Foundation
import Synchronization
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import Platform
@testable import Runtime

/// A source thread runs its event's turn itself while the pipeline thread waits on an empty queue
/// (`AgentEventQueue.borrowForSource`, `PipelineTurns`): what the taker may and may not do
/// meanwhile, and when it is woken afterwards.
@Suite struct SourceTurnsTests {
    /// What a taker thread got back, once it returned.
    final class Taken: Sendable {
        let result = Mutex<(returned: Bool, input: AgentInput?)>((false, nil))
        var returned: Bool { result.withLock { $0.returned } }
        var input: AgentInput? { result.withLock { $0.input } }
    }

    /// Starts a thread taking from `queue` until `deadline`.
    static func taker(_ queue: AgentEventQueue, until deadline: MonotonicInstant, includeSource: Bool = true) -> Taken {
        let taken = Taken()
        Thread {
            let input = queue.take(includeSource: includeSource, until: deadline)
            taken.result.withLock { $0 = (true, input) }
        }.start()
        return taken
    }

    /// Starts a taker waiting until `deadline`; returns once it waits (a borrow succeeds), with the
    /// turns lent to the caller in `lend`.
    static func lendingTaker(
        _ queue: AgentEventQueue, until deadline: MonotonicInstant, lending lend: inout AgentEventQueue.Lend?
    ) -> Taken {
        let taken = taker(queue, until: deadline)
        #expect(
            waitUntil(timeout: 5) {
                lend = queue.borrowForSource()
                return lend != nil
            })
        return taken
    }

    /// Whether the queue lends its turns now; for the cases that expect it not to (a lend taken
    /// here is dropped, never returned).
    static func lends(_ queue: AgentEventQueue) -> Bool { queue.borrowForSource() != nil }

    /// A taker that takes no source events (the outbox is full) lends nothing while it waits.
    static func expectNoLendingToAControlOnlyTaker(_ queue: AgentEventQueue) {
        let waiting = taker(queue, until: MonotonicClock.now() + .milliseconds(500), includeSource: false)
        #expect(!waitUntil(timeout: 0.3) { lends(queue) })
        #expect(waitUntil(timeout: 5) { waiting.returned })
    }

    /// Gives back the turns `lend` holds, as a source turn that left `nextWake` would.
    static func returnTurn(
        _ queue: AgentEventQueue, _ lend: inout AgentEventQueue.Lend?, nextWake: MonotonicInstant, ended: Bool = false,
        takesSource: Bool = true
    ) {
        guard let held = lend.take() else {
            Issue.record("no turns were lent to give back")
            return
        }
        queue.returnFromSource(
            held, after: AgentEventQueue.Return(nextWake: nextWake, ended: ended, takesSourceEvents: takesSource))
    }

    @Test func onlyAWaitingTakerWithNothingQueuedLendsItsTurns() {
        let queue = AgentEventQueue()
        #expect(!Self.lends(queue))  // nobody waits
        let far = MonotonicClock.now() + .seconds(60)
        var lend: AgentEventQueue.Lend?
        let taken = Self.lendingTaker(queue, until: far, lending: &lend)
        #expect(!Self.lends(queue))  // lent already
        Self.returnTurn(queue, &lend, nextWake: far)
        lend = queue.borrowForSource()
        let lentAgain = lend != nil
        #expect(lentAgain)  // the taker still waits
        Self.returnTurn(queue, &lend, nextWake: far)
        queue.post(.signal(.reload))
        #expect(waitUntil(timeout: 5) { taken.returned })
        #expect(queue.sourceTurnsRun == 2)

        Self.expectNoLendingToAControlOnlyTaker(AgentEventQueue())
    }

    @Test func whileLentTheTakerDoesNotReturnAndTakesWhatArrivedOnceGivenBack() {
        let queue = AgentEventQueue()
        let far = MonotonicClock.now() + .seconds(60)
        var lend: AgentEventQueue.Lend?
        let taken = Self.lendingTaker(queue, until: far, lending: &lend)
        queue.post(.signal(.reload))
        #expect(!waitUntil(timeout: 0.2) { taken.returned })
        // Nothing else borrows while an event waits for the taker.
        Self.returnTurn(queue, &lend, nextWake: far)
        #expect(!Self.lends(queue))
        #expect(waitUntil(timeout: 5) { taken.returned })
        guard case .signal(.reload)? = taken.input else {
            Issue.record("the control event posted while lent was not taken: \(String(describing: taken.input))")
            return
        }
    }

    @Test func aReturnedTurnWakesTheTakerOnlyWhenItMustTickSooner() {
        let queue = AgentEventQueue()
        let far = MonotonicClock.now() + .seconds(60)
        var lend: AgentEventQueue.Lend?
        let taken = Self.lendingTaker(queue, until: far, lending: &lend)
        // The turn left the deadline later than the taker's: it goes on waiting, lendable again.
        Self.returnTurn(queue, &lend, nextWake: MonotonicClock.now() + .seconds(120))
        #expect(!waitUntil(timeout: 0.2) { taken.returned })
        lend = queue.borrowForSource()
        let lentAgain = lend != nil
        #expect(lentAgain)
        // This one moved it earlier: the taker returns at once with nothing, to tick.
        Self.returnTurn(queue, &lend, nextWake: MonotonicClock.now())
        #expect(waitUntil(timeout: 5) { taken.returned })
        #expect(taken.input == nil)

        // A turn that ended the loop wakes it too.
        let ending = Self.lendingTaker(queue, until: far, lending: &lend)
        Self.returnTurn(queue, &lend, nextWake: far, ended: true)
        #expect(waitUntil(timeout: 5) { ending.returned })
        #expect(ending.input == nil)
    }

    /// A turn that filled the outbox: the core takes no source events until it drains, so the
    /// taker returns to wait without them, and no source thread runs another turn meanwhile.
    @Test func aTurnThatStopsSourceEventsEndsTheLending() {
        let queue = AgentEventQueue()
        let far = MonotonicClock.now() + .seconds(60)
        var lend: AgentEventQueue.Lend?
        let taken = Self.lendingTaker(queue, until: far, lending: &lend)
        Self.returnTurn(queue, &lend, nextWake: far, takesSource: false)
        #expect(!Self.lends(queue))
        #expect(waitUntil(timeout: 5) { taken.returned })
        #expect(taken.input == nil)
        Self.expectNoLendingToAControlOnlyTaker(queue)
    }

    @Test func aTakerWhoseDeadlinePassedWhileLentReturnsWhenGivenBack() {
        let queue = AgentEventQueue()
        let deadline = MonotonicClock.now() + .milliseconds(100)
        var lend: AgentEventQueue.Lend?
        let taken = Self.lendingTaker(queue, until: deadline, lending: &lend)
        #expect(!waitUntil(timeout: 0.4) { taken.returned })  // past its deadline, still lent
        Self.returnTurn(queue, &lend, nextWake: MonotonicClock.now() + .seconds(60))
        #expect(waitUntil(timeout: 5) { taken.returned })
        #expect(taken.input == nil)
    }

    @Test func aClosedQueueLendsNothing() {
        let queue = AgentEventQueue()
        let taken = Self.taker(queue, until: MonotonicClock.now() + .milliseconds(500))
        queue.close()
        #expect(!waitUntil(timeout: 0.2) { Self.lends(queue) })
        #expect(waitUntil(timeout: 5) { taken.returned })
    }
}
