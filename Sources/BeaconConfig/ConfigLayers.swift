import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// The configuration as file < fleet < gateway (issue "manage a fleet of gateways"): each layer a
/// YAML or JSON mapping of the file's own keys (JSON is YAML's flow style, so one parser takes both),
/// merged key by key over the parsed trees (`ConfigTreeMerge`) and decoded by the file's own decoder,
/// so a layer's diagnostics are `check-config`'s, located `<source>:line:column: key: message`.
///
/// A layer that does not parse or validate changes nothing. Only what can change at run time may be
/// set in a layer; an empty payload removes the layer.
package struct ConfigLayers: Sendable {
    /// Top-level keys a layer may set; `gateway` only its `floor`, `room` and `rssi_offset`. The rest
    /// is fixed for the process (docs/configuration.md, "Managing a fleet over MQTT"): `mqtt` is the
    /// session the layers arrive on, `gateway.id` names every topic and the broker user, `scanner`
    /// programs the adapter it opened at start, `metrics` is a socket bound at start (before any
    /// layer can arrive), and `remote_config` would switch off the channel that sets it.
    static let runTimeKeys = [
        "beacons", "regions", "devices", "gateway", "monitoring", "ranging", "homeassistant", "telemetry", "locator",
        "advertise", "log_level",
    ]
    static let runTimeGatewayKeys = ["floor", "room", "rssi_offset"]

    /// One applied layer.
    package struct Applied: Sendable {
        /// Where it came from: its topic, or the state file it was kept in.
        package var source: String
        package var payload: [UInt8]
        package var applied: Timestamp
        fileprivate var root: YAMLNode?
    }

    /// The merged, validated configuration.
    package private(set) var configuration: Configuration
    /// Warnings of the last successful merge (`mqtt.tls.insecure: true`, …).
    package private(set) var warnings: [ConfigWarning] = []
    package private(set) var layers: [ConfigLayer: Applied] = [:]
    package let file: String
    private var fileRoot: YAMLNode?
    private let defaults: Configuration

    /// The file's text (`bytes`, named `file` in diagnostics); keys it leaves out keep `defaults`.
    package init(file: String, bytes: [UInt8], defaults: Configuration) throws(ConfigError) {
        self.file = file
        self.defaults = defaults
        fileRoot = try YAMLDocumentParser(file: file).parse(bytes)
        configuration = defaults
        (configuration, warnings) = try Self.decode(fileRoot, layers: [:], file: file, defaults: defaults)
    }

    /// Reads the file at `path`; `defaultGatewayID` is the gateway id unless the file sets one.
    package static func load(path: String, defaultGatewayID: String) throws(ConfigError) -> ConfigLayers {
        var defaults = Configuration()
        defaults.gateway.id = defaultGatewayID
        return try ConfigLayers(file: path, bytes: try ConfigLoader.readFile(path), defaults: defaults)
    }

    /// SIGHUP: the file again, under the layers already applied; on error nothing changes.
    package mutating func reloadFile(bytes: [UInt8]) throws(ConfigError) -> Configuration {
        let root = try YAMLDocumentParser(file: file).parse(bytes)
        (configuration, warnings) = try Self.decode(root, layers: layers, file: file, defaults: defaults)
        fileRoot = root
        return configuration
    }

    /// Applies (or, with an empty payload, removes) `layer`, read from `source` at `time`. On error
    /// nothing changes and the error says what is wrong where.
    package mutating func set(
        _ layer: ConfigLayer, payload: [UInt8], source: String, at time: Timestamp
    )
        throws(ConfigError) -> Configuration
    {
        var next = layers
        if payload.isEmpty {
            next[layer] = nil
        } else {
            guard payload.count <= ConfigLayer.maximumPayload else {
                throw ConfigError(
                    file: source, line: 0, column: 0, key: "",
                    message:
                        "payload of \(payload.count) bytes is over the limit of \(ConfigLayer.maximumPayload); nothing applied"
                )
            }
            // A null document (`~`, `null`) sets nothing; merged as a value it would replace the whole file.
            let root = try YAMLDocumentParser(file: source).parse(payload).flatMap {
                $0.isNull ? nil : Self.labelled($0, source)
            }
            try Self.checkRunTimeKeys(root, source: source)
            next[layer] = Applied(source: source, payload: payload, applied: time, root: root)
        }
        (configuration, warnings) = try Self.decode(fileRoot, layers: next, file: file, defaults: defaults)
        layers = next
        return configuration
    }

    /// The effective configuration's tree, layers merged in order, as JSON with secrets redacted.
    package var mergedJSON: String {
        var root = fileRoot
        for layer in ConfigLayer.allCases {
            guard let upper = layers[layer]?.root else { continue }
            root = (try? ConfigTreeMerge.merge(root, upper)) ?? root
        }
        return ConfigDocumentJSON.render(root)
    }

    /// The retained effective configuration: `{"gateway","layers":[{"layer","source","applied","digest"}…],"config"}`,
    /// the file first; `config` is `mergedJSON` (keys left out have their documented defaults).
    package var document: String {
        var w = JSONWriter()
        w.beginObject()
        w.field("gateway", configuration.gateway.id)
        w.key("layers")
        w.beginArray()
        w.beginObject()
        w.field("layer", "file")
        w.field("source", file)
        w.endObject()
        for layer in ConfigLayer.allCases {
            guard let a = layers[layer] else { continue }
            w.beginObject()
            w.field("layer", layer.rawValue)
            w.field("source", a.source)
            w.field("applied", plain: a.applied.appendRFC3339)
            w.field("digest", ConfigLayer.digest(a.payload))
            w.endObject()
        }
        w.endArray()
        w.key("config")
        w.raw(mergedJSON)
        w.endObject()
        return w.text
    }

    private static func decode(
        _ fileRoot: YAMLNode?, layers: [ConfigLayer: Applied], file: String, defaults: Configuration
    ) throws(ConfigError) -> (Configuration, [ConfigWarning]) {
        var root = fileRoot
        for layer in ConfigLayer.allCases {
            guard let upper = layers[layer]?.root else { continue }
            root = try ConfigTreeMerge.merge(root, upper)
        }
        var decoder = ConfigDecoder(file: file)
        let configuration = try decoder.decode(root, defaults: defaults)
        return (configuration, decoder.warnings)
    }

    /// A layer is a mapping of run-time keys; the rest needs the file and a restart.
    private static func checkRunTimeKeys(_ root: YAMLNode?, source: String) throws(ConfigError) {
        guard let root, !root.isNull else { return }
        guard case .mapping(let pairs) = root.kind else {
            throw ConfigError(
                file: source, line: root.line, column: root.column, key: "",
                message:
                    "a configuration layer must be a mapping of the file's keys (beacons:, regions:, …), found \(root.kindDescription)"
            )
        }
        let known = ConfigKeys.sections[""] ?? []
        for pair in pairs where !runTimeKeys.contains(pair.key) && known.contains(pair.key) {
            throw restartOnly(pair.keyNode, pair.key, source)
        }
        if let gateway = pairs.first(where: { $0.key == "gateway" }) {
            // Anything but a mapping would replace the whole section, gateway.id included.
            guard case .mapping(let keys) = gateway.value.kind else {
                throw ConfigError(
                    file: source, line: gateway.value.line, column: gateway.value.column, key: "gateway",
                    message: "a layer sets gateway.floor, gateway.room or gateway.rssi_offset as a mapping, "
                        + "found \(gateway.value.kindDescription); the section itself cannot be replaced")
            }
            for pair in keys
            where !runTimeGatewayKeys.contains(pair.key) && (ConfigKeys.sections["gateway"] ?? []).contains(pair.key) {
                throw restartOnly(pair.keyNode, "gateway.\(pair.key)", source)
            }
        }
    }

    private static func restartOnly(_ node: YAMLNode, _ key: String, _ source: String) -> ConfigError {
        ConfigError(
            file: source, line: node.line, column: node.column, key: key,
            message: "takes effect only after a restart, so it cannot be set over MQTT; set it in the configuration "
                + "file (keys that change at run time: beacons, regions, devices, gateway.floor, gateway.room, "
                + "gateway.rssi_offset, monitoring, ranging, homeassistant, telemetry, locator, advertise, log_level)")
    }

    /// Every node of a layer names its source, so a diagnostic about it does too.
    private static func labelled(_ node: YAMLNode, _ source: String) -> YAMLNode {
        var n = node
        n.source = source
        switch node.kind {
        case .scalar: break
        case .sequence(let items): n.kind = .sequence(items.map { labelled($0, source) })
        case .mapping(let pairs):
            n.kind = .mapping(
                pairs.map {
                    YAMLNode.Pair(key: $0.key, keyNode: labelled($0.keyNode, source), value: labelled($0.value, source))
                })
        }
        return n
    }
}
