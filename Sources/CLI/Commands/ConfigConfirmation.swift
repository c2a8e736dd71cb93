import BeaconCore
import MessageContract
import Settings
import Vocabulary

/// Who should confirm a layer `config set`/`unset` published, and what each gateway did: the
/// gateways are those the broker holds a retained status or effective configuration of (every
/// gateway with `--fleet`, the named one otherwise). One that is online and publishes an effective
/// configuration is waited for until it applies the layer (its digest in the effective
/// configuration) or refuses it (an error naming the layer and digest); one that is offline applies
/// the retained layer when it connects again; one that publishes no effective configuration does
/// not take configuration over MQTT (`remote_config.enabled` off) — or is not a gateway at all.
struct ConfigConfirmation {
    enum Outcome: Equatable {
        case applied
        case refused([String])
        case noAnswer
        case offline
        case noRemoteConfig
    }

    let layer: ConfigLayer
    /// `ConfigLayer.digest` of the published payload; nil when the layer was removed.
    let digest: String?
    let topics: TopicTree
    /// Gateway → its retained status and effective configuration.
    private(set) var known: [String: (status: String?, document: String?)] = [:]

    /// - Parameter only: the one gateway of a gateway layer (nil with `--fleet`).
    init(retained: [String: String], layer: ConfigLayer, digest: String?, topics: TopicTree, only: String?) {
        self.layer = layer
        self.digest = digest
        self.topics = topics
        if let only { known[only] = (nil, nil) }
        for (topic, payload) in retained {
            switch topics.parse(topic) {
            case .gatewayStatus(let gw)? where only == nil || only == gw:
                known[gw, default: (nil, nil)].status = payload
            case .gatewayConfig(let gw)? where only == nil || only == gw:
                known[gw, default: (nil, nil)].document = payload
            default: continue
            }
        }
    }

    /// The gateways that can answer now: not offline, and publishing an effective configuration.
    var expected: Set<String> {
        Set(known.filter { $0.value.status != Availability.offline.rawValue && $0.value.document != nil }.keys)
    }

    /// Each gateway's outcome after `live` (the messages since the layer was published). An
    /// expected gateway whose retained effective configuration already carried the layer counts as
    /// applied: it runs it.
    func outcomes(live: [(topic: String, payload: String)]) -> [String: Outcome] {
        var out: [String: Outcome] = [:]
        let expected = self.expected
        for (gw, state) in known {
            if state.status == Availability.offline.rawValue {
                out[gw] = .offline
            } else if state.document == nil {
                out[gw] = .noRemoteConfig
            } else if ConfigurationAnswer(document: state.document!, layer: layer, digest: digest) != nil {
                out[gw] = .applied
            }
        }
        for message in live {
            let answer: (String, ConfigurationAnswer?)
            switch topics.parse(message.topic) {
            case .gatewayConfig(let gw)?:
                answer = (gw, ConfigurationAnswer(document: message.payload, layer: layer, digest: digest))
            case .gatewayConfigError(let gw)?:
                answer = (gw, ConfigurationAnswer(error: message.payload, layer: layer, digest: digest))
            default: continue
            }
            guard expected.contains(answer.0), let a = answer.1 else { continue }
            switch a {
            case .applied: out[answer.0] = .applied
            case .refused(let diagnostics): out[answer.0] = .refused(diagnostics)
            }
        }
        for gw in expected where out[gw] == nil { out[gw] = .noAnswer }
        return out
    }

    /// True once every expected gateway has applied or refused the layer.
    func isComplete(live: [(topic: String, payload: String)]) -> Bool {
        !outcomes(live: live).values.contains(.noAnswer)
    }
}
