import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Vocabulary

/// The read-back of our own retained `attributes` at start (docs/topics.md, "Restarts without
/// event storms"): subscribe, collect what the broker sends, and call it complete a quiet period after
/// the SUBACKs and the last message, or at the deadline, whichever comes first.
package struct RestoreSession: Sendable {
    package let subscriptions: [String]
    package let deadline: MonotonicInstant
    private let quiet: TimeSpan
    private var quietUntil: MonotonicInstant?
    private var generation: UInt64?
    private var pendingAcknowledgements: Set<Int32> = []
    private var retained: [String: String] = [:]

    package init(subscriptions: [String], deadline: MonotonicInstant, quiet: TimeSpan) {
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
        if pendingAcknowledgements.isEmpty { quietUntil = now + quiet }
    }

    /// A retained message arrived; each one restarts the quiet period once the SUBACKs are in.
    package mutating func received(topic: String, payload: [UInt8], retained isRetained: Bool, at now: MonotonicInstant)
    {
        guard isRetained, !payload.isEmpty else { return }
        retained[topic] = String(decoding: payload, as: UTF8.self)
        if quietUntil != nil { quietUntil = now + quiet }
    }

    /// What was read back, by topic.
    package var messages: [RetainedMessage] {
        retained.sorted { $0.key < $1.key }.map { RetainedMessage(topic: $0.key, payload: $0.value) }
    }
}

extension RestoreSession {
    /// What the read-back subscribes to: this gateway's retained states and attributes by wildcard,
    /// then the exact `attributes` topic of every configured subject whose topic is known — each
    /// region, each beacon under `beacons:` and each device the settings monitor one by one, and the
    /// one beacon a region names in full (uuid, major and minor; namespace and instance). On RabbitMQ
    /// only the exact ones restore (`TopicTree.restoreTopics`).
    package static func subscriptions(for c: Configuration) -> [String] {
        let tree = TopicTree(c)
        let settings = MonitorSettings(c)
        let monitored = MonitoredSubjects(settings)
        let named = c.regions.compactMap { r -> BeaconIdentity? in
            switch r.scheme {
            case .uuid:
                guard let major = r.major, let minor = r.minor else { return nil }
                return .uuid(r.uuid, major: major, minor: minor)
            case .eddystone:
                guard let instance = r.instance else { return nil }
                let instanceBits: UInt64 = 0xFFFF_FFFF_FFFF
                return .eddystone(
                    BeaconID128(high: r.uuid.high, low: (r.uuid.low & ~instanceBits) | (instance & instanceBits)))
            case .device: return nil
            }
        }
        let beacons = (settings.beacons.map(\.identity) + named).filter { monitored.monitors(.beacon($0)) }
        return tree.restoreSubscriptions + tree.restoreTopics(regions: c.regions.map(\.name), beacons: beacons)
    }
}
