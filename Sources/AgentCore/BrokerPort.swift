import Vocabulary

/// A thin transport adapter to an MQTT broker, beside `PacketSource`: it connects in the background,
/// reconnects on its own, and speaks topic strings and payload bytes, never the message contract.
/// The live one is libmosquitto's (`MosquittoClient`); tests give `Agent` one in memory, so the
/// shell runs without a broker. Every method is safe to call from any thread.
package protocol BrokerPort: AnyObject, Sendable {
    /// Starts connecting; `deliver` gets the session's events in order, a batch at a time (the
    /// events of one read pass), on a thread of the port's; it must not block.
    func start(delivering deliver: @escaping @Sendable ([BrokerEvent]) -> Void)
    /// Waits until connected (true), or until the first attempt fails or `timeout` passes (false).
    func waitForFirstAttempt(timeout: TimeSpan) -> Bool
    /// The reason of the most recent failed attempt, if any.
    var lastFailure: String? { get }
    /// How the broker is addressed in log lines (no credentials).
    var endpoint: String { get }
    /// Clean shutdown: `offline` when the port announces availability, then disconnect, within `timeout`.
    func stop(timeout: TimeSpan)
    /// Publishes on the current connection; with `generation`, only on that one (the outbox
    /// re-sends what an older connection left unacknowledged, in order).
    func publish(
        topic: String, payload: UnsafeRawBufferPointer, qos: Int, retain: Bool, generation: UInt64?
    )
        -> PublishOutcome
    /// Subscribes; the packet id its SUBACK will carry, or nil when it could not be sent.
    func subscribe(_ pattern: String, qos: Int) -> Int32?
    func unsubscribe(_ pattern: String)
}
