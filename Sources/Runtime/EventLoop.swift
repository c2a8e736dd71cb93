import AgentCore
import BeaconWire
import Platform

/// The thread shell's one loop, for the gateway (`Agent`) and the locator (`LocateService`): tick
/// the core with both clocks, carry out its actions, wait on the queue until an input or the
/// core's next deadline (monotonic), hand the input over, and again until the core terminates.
/// While it waits, a source thread may run its event's turn itself (`PipelineTurns`).
enum EventLoop {
    static func run<Core: AgentMachine>(_ turns: PipelineTurns<Core>, queue: AgentEventQueue) -> AgentTermination {
        while true {
            turns.tick()
            let state = turns.waitState
            if let termination = state.termination { return termination }
            let taken = queue.takeStamped(includeSource: state.takesSourceEvents, until: state.nextWake)
            if let taken { turns.handle(taken.input) }
            turns.endTurn(posted: taken?.posted)
        }
    }
}
