import AgentCore
import BeaconWire
import Platform

/// The thread shell's one loop, for the gateway (`Agent`) and the locator (`LocateService`): tick
/// the core with both clocks, carry out its actions, wait on the queue until an input or the
/// core's next deadline (monotonic), hand the input over, and again until the core terminates.
enum EventLoop {
    /// - Parameters:
    ///   - perform: carries out the core's actions (it may feed the core again, e.g. a reload).
    ///   - turned: after every turn (systemd's watchdog, published counts, `/metrics`), with when
    ///     the turn's source event was posted. It takes the core `inout` only to read it in place:
    ///     passed by value, the generic core was copied every turn (a retain of each of its
    ///     references; callgrind: 3 % of the pipeline thread at 3,000 reports/s).
    static func run<Core: AgentMachine>(
        _ core: inout Core, queue: AgentEventQueue, session: inout MosquittoSession,
        perform: (inout Core, [AgentAction]) -> Void, turned: (inout Core, MonotonicInstant?) -> Void = { _, _ in }
    ) -> AgentTermination {
        while true {
            core.tick(at: MonotonicClock.now(), wall: WallTime().timestamp, &session)
            perform(&core, core.takeActions())
            if let termination = core.termination { return termination }
            let taken = queue.takeStamped(includeSource: core.takesSourceEvents, until: core.nextWake)
            if let taken {
                core.handle(taken.input, at: MonotonicClock.now(), wall: WallTime().timestamp, &session)
                perform(&core, core.takeActions())
            }
            turned(&core, taken?.posted)
        }
    }
}
