import AgentCore
import BeaconConfig
import BeaconCore
import BeaconWire
import Platform
import Settings
import Vocabulary

/// `run`'s configuration layers (`remote_config.enabled`): the file and the layers set over MQTT
/// (`ConfigLayers`), and the last applied layers kept in the state directory, so a gateway that
/// restarts without its broker starts with them.
final class RemoteConfigStore: ConfigurationLayering {
    private var layers: ConfigLayers
    private let path: String
    let stateDirectory: String
    /// What `run` changes after every load (a floor-plan gateway's identity).
    private let adjust: (inout Configuration) -> Void

    init(layers: ConfigLayers, path: String, stateDirectory: String, adjust: @escaping (inout Configuration) -> Void) {
        self.layers = layers
        self.path = path
        self.stateDirectory = stateDirectory
        self.adjust = adjust
    }

    /// The file at `path` (built-in defaults when there is none) with no layers yet.
    static func open(
        path: String, stateDirectory: String, adjust: @escaping (inout Configuration) -> Void
    ) throws
        -> RemoteConfigStore
    {
        var defaults = Configuration()
        defaults.gateway.id = HostName.gatewayID()
        let bytes = FileSystem.exists(path) ? try ConfigLoader.readFile(path) : []
        return RemoteConfigStore(
            layers: try ConfigLayers(file: path, bytes: bytes, defaults: defaults), path: path,
            stateDirectory: stateDirectory, adjust: adjust)
    }

    /// systemd's `$STATE_DIRECTORY` (the unit's `StateDirectory=`), else `/var/lib/beacon2mqtt`.
    static func stateDirectory(_ environment: [String: String]) -> String {
        environment["STATE_DIRECTORY"].flatMap { $0.split(separator: ":").first.map(String.init) }
            ?? "/var/lib/beacon2mqtt"
    }

    func statePath(_ layer: ConfigLayer) -> String { "\(stateDirectory)/config-\(layer.rawValue).layer" }

    /// At start: the layers the last run applied. Returns a line per layer that no longer applies.
    func restoreKeptLayers(at time: Timestamp) -> [String] {
        var problems: [String] = []
        for layer in ConfigLayer.allCases {
            guard let bytes = try? FileSystem.contents(statePath(layer)), !bytes.isEmpty else { continue }
            do {
                _ = try layers.set(layer, payload: bytes, source: statePath(layer), at: time)
            } catch {
                problems.append("\(error)")
            }
        }
        return problems
    }

    var update: ConfigurationUpdate {
        var c = layers.configuration
        adjust(&c)
        return ConfigurationUpdate(configuration: c, document: layers.document, layers: Set(layers.layers.keys))
    }

    func reloadFile() throws -> ConfigurationUpdate {
        let bytes = FileSystem.exists(path) ? try ConfigLoader.readFile(path) : []
        _ = try layers.reloadFile(bytes: bytes)
        return update
    }

    func apply(
        _ layer: ConfigLayer, payload: [UInt8], source: String, at time: Timestamp
    )
        -> Result<ConfigurationUpdate, ConfigurationRejection>
    {
        let current = layers.layers[layer]
        // The same layer read again after a reconnect: nothing to apply, but the effective configuration is re-sent.
        if (current == nil && payload.isEmpty) || (current?.payload == payload && current?.source == source) {
            return .success(update)
        }
        do {
            _ = try layers.set(layer, payload: payload, source: source, at: time)
        } catch {
            return .failure(ConfigurationRejection(diagnostics: ["\(error)"]))
        }
        var applied = update
        if let failure = keep(layer, payload) { applied.keepFailures = ["\(failure)"] }
        return .success(applied)
    }

    /// The state file of `layer`: its payload, or gone with the layer. A failure to write (a
    /// read-only or full state directory) costs only the start without a broker, so it is a
    /// warning, not an error.
    private func keep(_ layer: ConfigLayer, _ payload: [UInt8]) -> SystemCallError? {
        do throws(SystemCallError) {
            if payload.isEmpty {
                try FileSystem.remove(statePath(layer))
            } else {
                try FileSystem.replace(statePath(layer), with: payload)
            }
            return nil
        } catch {
            return error
        }
    }
}
