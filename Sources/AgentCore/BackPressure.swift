/// When the agent takes the source's packets.
///
/// A capture can wait for a connected broker, a radio cannot: while a replay's messages fill half
/// the outbox, its packets wait in the bounded queue (and the replay thread with them), so a replay
/// at `--speed max` never makes the outbox drop an enter or exit. While the broker is away a replay
/// runs on like a live source, whose outbox keeps events and coalesces proximity first. Nothing is
/// taken while the retained states are read back.
package enum BackPressure {
    package static func acceptsSourceEvents(
        phase: AgentPhase, timing: AgentOptions.Timing, firstAttemptDone: Bool, connected: Bool,
        delivery: DeliveryPolicy, outboxLimit: Int
    ) -> Bool {
        guard phase != .restoring else { return false }
        if case .capture = timing {
            // Not before the first connection attempt has an outcome, so a replay cannot race ahead
            // of a broker that is merely slow to accept.
            guard firstAttemptDone else { return false }
            if connected { return delivery.heldCount == 0 && delivery.queuedCount < max(outboxLimit / 2, 1) }
        }
        return true
    }
}
