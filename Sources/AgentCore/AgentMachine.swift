import BeaconWire
import Vocabulary

/// What the thread shell's loop runs: `AgentCore` (the gateway) and `LocatorCore` (the locator).
/// The shell reads both clocks, feeds inputs, carries out actions and waits until `nextWake`.
package protocol AgentMachine {
    /// One turn before waiting: deadlines and timers due at `now`.
    mutating func tick<Session: BrokerSession>(at now: MonotonicInstant, wall: Timestamp, _ session: inout Session)
    mutating func handle<Session: BrokerSession>(
        _ input: AgentInput, at now: MonotonicInstant, wall: Timestamp, _ session: inout Session)
    mutating func takeActions() -> [AgentAction]
    /// When to tick at the latest if no input arrives.
    var nextWake: MonotonicInstant { get }
    /// The shell may take source events now.
    var takesSourceEvents: Bool { get }
    /// Set once the loop should end.
    var termination: AgentTermination? { get }
}

extension AgentCore: AgentMachine {}
