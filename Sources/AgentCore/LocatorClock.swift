/// Which clock decides when a locator's tick is due.
package enum LocatorClock: Sendable, Equatable {
    /// The wall clock: the live set-up. `not_home` needs it (no message arrives for a gone beacon).
    case wall
    /// The newest reading's timestamp: replays and simulations faster than real time.
    case messages
}
