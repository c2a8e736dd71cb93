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
    /// turns lent to the caller.
    static func lendingTaker(_ queue: AgentEventQueue, until deadline: MonotonicInstant) -> Taken {
        let taken = taker(queue, until: deadline)
        #expect(waitUntil(timeout: 5) { queue.borrowForSource() })
        return taken
    }

    /// A taker that takes no source events (the outbox is full) lends nothing while it waits.
    static func expectNoLendingToAControlOnlyTaker(_ queue: AgentEventQueue) {
        let waiting = taker(queue, until: MonotonicClock.now() + .milliseconds(500), includeSource: false)
        #expect(!waitUntil(timeout: 0.3) { queue.borrowForSource() })
        #expect(waitUntil(timeout: 5) { waiting.returned })
    }

    static func returnTurn(
        _ queue: AgentEventQueue, nextWake: MonotonicInstant, ended: Bool = false, takesSource: Bool = true
    ) {
        queue.returnFromSource(AgentEventQueue.Return(nextWake: nextWake, ended: ended, takesSourceEvents: takesSource))
    }

    @Test func onlyAWaitingTakerWithNothingQueuedLendsItsTurns() {
        let queue = AgentEventQueue()
        #expect(!queue.borrowForSource())  // nobody waits
        let far = MonotonicClock.now() + .seconds(60)
        let taken = Self.lendingTaker(queue, until: far)
        #expect(!queue.borrowForSource())  // lent already
        Self.returnTurn(queue, nextWake: far)
        #expect(queue.borrowForSource())  // the taker still waits: lent again
        Self.returnTurn(queue, nextWake: far)
        queue.post(.signal(.reload))
        #expect(waitUntil(timeout: 5) { taken.returned })
        #expect(queue.sourceTurnsRun == 2)

        Self.expectNoLendingToAControlOnlyTaker(AgentEventQueue())
    }

    @Test func whileLentTheTakerDoesNotReturnAndTakesWhatArrivedOnceGivenBack() {
        let queue = AgentEventQueue()
        let far = MonotonicClock.now() + .seconds(60)
        let taken = Self.lendingTaker(queue, until: far)
        queue.post(.signal(.reload))
        #expect(!waitUntil(timeout: 0.2) { taken.returned })
        // Nothing else borrows while an event waits for the taker.
        Self.returnTurn(queue, nextWake: far)
        #expect(!queue.borrowForSource())
        #expect(waitUntil(timeout: 5) { taken.returned })
        guard case .signal(.reload)? = taken.input else {
            Issue.record("the control event posted while lent was not taken: \(String(describing: taken.input))")
            return
        }
    }

    @Test func aReturnedTurnWakesTheTakerOnlyWhenItMustTickSooner() {
        let queue = AgentEventQueue()
        let far = MonotonicClock.now() + .seconds(60)
        let taken = Self.lendingTaker(queue, until: far)
        // The turn left the deadline later than the taker's: it goes on waiting, lendable again.
        Self.returnTurn(queue, nextWake: MonotonicClock.now() + .seconds(120))
        #expect(!waitUntil(timeout: 0.2) { taken.returned })
        #expect(queue.borrowForSource())
        // This one moved it earlier: the taker returns at once with nothing, to tick.
        Self.returnTurn(queue, nextWake: MonotonicClock.now())
        #expect(waitUntil(timeout: 5) { taken.returned })
        #expect(taken.input == nil)

        // A turn that ended the loop wakes it too.
        let ending = Self.lendingTaker(queue, until: far)
        Self.returnTurn(queue, nextWake: far, ended: true)
        #expect(waitUntil(timeout: 5) { ending.returned })
        #expect(ending.input == nil)
    }

    /// A turn that filled the outbox: the core takes no source events until it drains, so the
    /// taker returns to wait without them, and no source thread runs another turn meanwhile.
    @Test func aTurnThatStopsSourceEventsEndsTheLending() {
        let queue = AgentEventQueue()
        let far = MonotonicClock.now() + .seconds(60)
        let taken = Self.lendingTaker(queue, until: far)
        Self.returnTurn(queue, nextWake: far, takesSource: false)
        #expect(!queue.borrowForSource())
        #expect(waitUntil(timeout: 5) { taken.returned })
        #expect(taken.input == nil)
        Self.expectNoLendingToAControlOnlyTaker(queue)
    }

    @Test func aTakerWhoseDeadlinePassedWhileLentReturnsWhenGivenBack() {
        let queue = AgentEventQueue()
        let deadline = MonotonicClock.now() + .milliseconds(100)
        let taken = Self.lendingTaker(queue, until: deadline)
        #expect(!waitUntil(timeout: 0.4) { taken.returned })  // past its deadline, still lent
        Self.returnTurn(queue, nextWake: MonotonicClock.now() + .seconds(60))
        #expect(waitUntil(timeout: 5) { taken.returned })
        #expect(taken.input == nil)
    }

    @Test func aClosedQueueLendsNothing() {
        let queue = AgentEventQueue()
        let taken = Self.taker(queue, until: MonotonicClock.now() + .milliseconds(500))
        queue.close()
        #expect(!waitUntil(timeout: 0.2) { queue.borrowForSource() })
        #expect(waitUntil(timeout: 5) { taken.returned })
    }
}
