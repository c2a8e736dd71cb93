import BeaconCore
import MessageContract
import Settings
import Vocabulary

/// The agent's side of configuration over MQTT (`remote_config.enabled`): which set topics it
/// subscribes to, and a rate limit. A layer is applied at most once per `minimumInterval`; what
/// arrives sooner waits, and only the newest payload of each layer is kept, so a flood of set
/// messages costs one payload per layer of memory and ends applied as its last message says.
///
/// After each (re)connection the retained layers are read again: a layer the gateway applied (from
/// its state directory, or before a disconnection) that the broker no longer holds once
/// `readBackQuiet` passed after the subscriptions were acknowledged was removed meanwhile, and goes.
package struct RemoteConfiguration: Sendable {
    package let topics: TopicTree
    package var minimumInterval = TimeSpan.seconds(1)
    package var readBackQuiet = TimeSpan.seconds(1)
    /// The layers applied now.
    package var applied: Set<ConfigLayer>
    /// The retained effective configuration, republished on every connect.
    package var document: String?
    private var pending: [ConfigLayer: [UInt8]] = [:]
    /// The digest (`ConfigLayer.digest`) of each layer's payload last handed out by `due`: what a
    /// refusal of it names.
    package private(set) var requested: [ConfigLayer: String] = [:]
    private var nextAllowed: [ConfigLayer: MonotonicInstant] = [:]
    private var subscriptionMids: [Int32: ConfigLayer] = [:]
    private var generation: UInt64?
    /// Per layer: when the read-back after a connection ends, unless a retained message came first.
    private var readBackEnds: [ConfigLayer: MonotonicInstant] = [:]

    package init(topics: TopicTree, applied: Set<ConfigLayer>, document: String?) {
        self.topics = topics
        self.applied = applied
        self.document = document
    }

    /// `<base>/fleet/config/set` and `<base>/gateways/<gw>/config/set`.
    package func topic(of layer: ConfigLayer) -> String {
        layer == .fleet ? topics.fleetConfigSet : topics.gatewayConfigSet
    }

    /// Which layer a message's topic sets, if any.
    package func layer(of topic: String) -> ConfigLayer? {
        ConfigLayer.allCases.first { self.topic(of: $0) == topic }
    }

    package mutating func subscribe<Session: BrokerSession>(generation: UInt64, on session: inout Session) {
        self.generation = generation
        subscriptionMids = [:]
        readBackEnds = [:]
        for layer in ConfigLayer.allCases {
            if let mid = session.subscribe(topic(of: layer), qos: 1) { subscriptionMids[mid] = layer }
        }
    }

    package mutating func subscribed(generation: UInt64, mid: Int32, at now: MonotonicInstant) {
        guard generation == self.generation, let layer = subscriptionMids.removeValue(forKey: mid) else { return }
        readBackEnds[layer] = now + readBackQuiet
    }

    /// A set message; returns false when it is not for a set topic.
    package mutating func received(topic: String, payload: [UInt8]) -> Bool {
        guard let layer = layer(of: topic) else { return false }
        readBackEnds[layer] = nil
        pending[layer] = payload
        return true
    }

    /// The layers to apply now, with their payloads (an empty payload removes the layer).
    package mutating func due(at now: MonotonicInstant) -> [(ConfigLayer, [UInt8])] {
        var out: [(ConfigLayer, [UInt8])] = []
        for (layer, end) in readBackEnds where now >= end {
            readBackEnds[layer] = nil
            if applied.contains(layer), pending[layer] == nil { pending[layer] = [] }
        }
        for layer in ConfigLayer.allCases {
            guard let payload = pending[layer], now >= nextAllowed[layer] ?? now else { continue }
            pending[layer] = nil
            requested[layer] = ConfigLayer.digest(payload)
            nextAllowed[layer] = now + minimumInterval
            out.append((layer, payload))
        }
        return out
    }

    /// When `due` has something to hand out next, if anything waits.
    package func nextDue(after now: MonotonicInstant) -> MonotonicInstant? {
        var times = readBackEnds.values.map { $0 }
        for layer in pending.keys { times.append(nextAllowed[layer] ?? now) }
        return times.min()
    }
}
