import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Vocabulary

/// Configuration over MQTT in the agent core: set messages go to `RemoteConfiguration` (rate limit,
/// read-back), due layers become `applyConfigurationLayer` actions, and the shell's answer comes
/// back through `layerApplied`, which takes the same path as a SIGHUP reload.
extension AgentCore {
    /// On connect: subscribe to the set topics and republish the effective configuration.
    mutating func connectRemoteConfiguration<Session: BrokerSession>(generation: UInt64, _ session: inout Session) {
        guard var remote else { return }
        remote.subscribe(generation: generation, on: &session)
        if let document = remote.document {
            out.append(ConfigurationReport.effective(document, topics: TopicTree(configuration)))
        }
        self.remote = remote
        enqueueOutput()
    }

    /// A set message (true), or a message for someone else (false).
    mutating func receivedRemoteConfiguration(topic: String, payload: [UInt8]) -> Bool {
        guard remote?.received(topic: topic, payload: payload) == true else { return false }
        requestDueLayers()
        return true
    }

    mutating func subscribedRemoteConfiguration(generation: UInt64, mid: Int32) {
        let now = self.now
        remote?.subscribed(generation: generation, mid: mid, at: now)
    }

    /// Asks the shell to apply the layers whose turn it is.
    mutating func requestDueLayers() {
        guard var remote else { return }
        let due = remote.due(at: now)
        self.remote = remote
        for (layer, payload) in due {
            guard payload.count <= ConfigLayer.maximumPayload else {
                refuse(
                    layer, source: remote.topic(of: layer),
                    ConfigurationRejection(diagnostics: [
                        "\(remote.topic(of: layer)): payload of \(payload.count) bytes is over the limit of "
                            + "\(ConfigLayer.maximumPayload); nothing applied"
                    ]))
                continue
            }
            actions.append(.applyConfigurationLayer(layer, payload: payload, source: remote.topic(of: layer)))
        }
    }

    /// The shell's answer to `applyConfigurationLayer`: applied like a reload, or refused with
    /// nothing changed; either way the broker hears of it.
    package mutating func layerApplied(
        _ layer: ConfigLayer, source: String, _ result: Result<ConfigurationUpdate, ConfigurationRejection>
    ) {
        switch result {
        case .success(let update):
            adopt(update)
            log(.info, "configuration layer applied", ["layer": layer.rawValue, "source": source])
            for failure in update.keepFailures {
                log(
                    .warning,
                    "configuration layer not kept in the state directory; a restart without the broker starts without it",
                    ["layer": layer.rawValue, "error": failure])
            }
        case .failure(let rejection):
            refuse(layer, source: source, rejection)
        }
    }

    /// Publishes why `layer` (its payload the one `due` handed out last) was refused.
    private mutating func refuse(_ layer: ConfigLayer, source: String, _ rejection: ConfigurationRejection) {
        log(
            .warning, "configuration layer refused; keeping the running configuration",
            ["layer": layer.rawValue, "error": rejection.diagnostics.joined(separator: "; ")])
        out.append(
            ConfigurationReport.error(
                layer: layer, source: source, digest: remote?.requested[layer] ?? ConfigLayer.digest([]),
                diagnostics: rejection.diagnostics, at: wall,
                topics: TopicTree(configuration)))
        enqueueOutput()
    }

    /// Runs on `update` (the reload path) and publishes its effective configuration.
    mutating func adopt(_ update: ConfigurationUpdate) {
        apply(update.configuration)
        guard var remote else { return }
        remote.applied = update.layers
        remote.document = update.document ?? remote.document
        self.remote = remote
        if let document = remote.document {
            out.append(ConfigurationReport.effective(document, topics: TopicTree(configuration)))
            enqueueOutput()
        }
    }
}
