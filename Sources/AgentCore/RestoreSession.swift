/// The read-back of our own retained `attributes` at start (README, "Restarts without event
/// storms"): subscribe, collect what the broker sends, and call it complete a quiet period after
/// the SUBACKs and the last message, or at the deadline, whichever comes first.
package struct RestoreSession: Sendable {
    package let subscriptions: [String]
    package let deadline: MonotonicInstant
    private let quiet: Double
    private var quietUntil: MonotonicInstant?
    private var generation: UInt64?
    private var pendingAcknowledgements: Set<Int32> = []
    private var retained: [String: String] = [:]

    package init(subscriptions: [String], deadline: MonotonicInstant, quiet: Double) {
        self.subscriptions = subscriptions
        self.deadline = deadline
        self.quiet = quiet
    }

    /// When the read-back counts as complete if nothing else arrives.
    package var completion: MonotonicInstant { quietUntil.map { min($0, deadline) } ?? deadline }

    package func isComplete(at now: MonotonicInstant) -> Bool { now >= completion }

    /// Subscribes on connection `generation`; false when a subscription could not be sent (the
    /// restore then ends with what it has).
    package mutating func subscribe<Session: BrokerSession>(generation: UInt64, on session: inout Session) -> Bool {
        self.generation = generation
        pendingAcknowledgements = []
        for pattern in subscriptions {
            guard let mid = session.subscribe(pattern, qos: 1) else { return false }
            pendingAcknowledgements.insert(mid)
        }
        return true
    }

    package mutating func subscribed(generation: UInt64, mid: Int32, at now: MonotonicInstant) {
        guard generation == self.generation else { return }
        pendingAcknowledgements.remove(mid)
        if pendingAcknowledgements.isEmpty { quietUntil = now.adding(seconds: quiet) }
    }

    /// A retained message arrived; each one restarts the quiet period once the SUBACKs are in.
    package mutating func received(topic: String, payload: [UInt8], retained isRetained: Bool, at now: MonotonicInstant) {
        guard isRetained, !payload.isEmpty else { return }
        retained[topic] = String(decoding: payload, as: UTF8.self)
        if quietUntil != nil { quietUntil = now.adding(seconds: quiet) }
    }

    /// What was read back, by topic.
    package var messages: [RetainedMessage] {
        retained.sorted { $0.key < $1.key }.map { RetainedMessage(topic: $0.key, payload: $0.value) }
    }
}
