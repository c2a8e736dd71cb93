// libFuzzer target `layer`: a configuration layer set over MQTT (`ConfigLayers.set`, the parser and
// merge behind `<base>/fleet/config/set` and `<base>/gateways/<gw>/config/set`).
//
// The input's first byte picks the layer (bit 0: fleet or gateway) and whether the other layer is
// already set (bit 1); the rest is the payload. Invariants, each a precondition:
// - a refused layer changes nothing: configuration, effective document and layers as before;
// - a refusal names the layer's topic (or the file, for a value merged from it), a position inside
//   the text it names, and — when the payload is a well-formed mapping — the key it is about;
// - an applied layer never changes what needs a restart (mqtt, scanner, gateway.id, remote_config,
//   metrics), the effective document never shows the file's secrets, and removing the layer again
//   gives back the configuration and document from before.
import BeaconConfig
import BeaconCore
import BeaconWire
import Settings
import Vocabulary

let fileName = "beacon2mqtt.yaml"
let topics = [ConfigLayer.fleet: "beacons/fleet/config/set", .gateway: "beacons/gateways/gw1/config/set"]
let fileText = """
    gateway:
      id: gw1
      room: hall
    mqtt:
      host: broker.example
      username: fuzz-secret-user
      password_file: /etc/beacon2mqtt/fuzz-secret-password
    remote_config:
      enabled: true
    regions:
      - name: office
        uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
      - name: zone
        uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
        major: 1
    beacons:
      - uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
        major: 1
        minor: 2
        name: keys
    """
let t0 = Timestamp(microseconds: 1_714_564_800_000_000)

/// The layers before the input, by the selector's two low bits: the fixed file read, and the other layer
/// set or not. Read once and copied per input (a value type): reading the file for every input made the
/// target 1.6 times slower over its corpus.
let prepared: [ConfigLayers] = (0..<4).map { selector in
    let layer: ConfigLayer = selector & 1 == 0 ? .fleet : .gateway
    var defaults = Configuration()
    defaults.gateway.id = "default"
    do {
        var layers = try ConfigLayers(file: fileName, bytes: Array(fileText.utf8), defaults: defaults)
        if selector & 2 != 0 {
            let other: ConfigLayer = layer == .fleet ? .gateway : .fleet
            _ = try layers.set(
                other, payload: Array(#"{"gateway": {"floor": "2"}, "monitoring": {"exit_timeout": "20s"}}"#.utf8),
                source: topics[other]!, at: t0)
        }
        return layers
    } catch {
        preconditionFailure("the fixed file or layer is refused: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func layerFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    guard let selector = bytes.first else { return 0 }
    let payload = Array(bytes.dropFirst())
    let layer: ConfigLayer = selector & 1 == 0 ? .fleet : .gateway
    let source = topics[layer]!
    var layers = prepared[Int(selector & 3)]
    let before = (configuration: layers.configuration, document: layers.document, applied: Set(layers.layers.keys))
    do throws(ConfigError) {
        let configuration = try layers.set(layer, payload: payload, source: source, at: t0 + .seconds(1))
        precondition(configuration == layers.configuration)
        precondition(configuration.mqtt == before.configuration.mqtt, "a layer changed mqtt")
        precondition(
            configuration.bluetooth.scanner == before.configuration.bluetooth.scanner, "a layer changed scanner")
        precondition(configuration.gateway.id == before.configuration.gateway.id, "a layer changed gateway.id")
        precondition(configuration.remoteConfig == before.configuration.remoteConfig, "a layer changed remote_config")
        precondition(configuration.metrics == before.configuration.metrics, "a layer changed metrics")
        let document = layers.document
        precondition(!document.contains("fuzz-secret"), "the effective configuration shows a secret: \(document)")
        precondition(payload.isEmpty ? layers.layers[layer] == nil : layers.layers[layer] != nil)
        // Taking the layer away again gives back what ran before it.
        if !before.applied.contains(layer) {
            let after = try layers.set(layer, payload: [], source: source, at: t0 + .seconds(2))
            precondition(
                after == before.configuration, "removing the layer did not give back the configuration before it")
            precondition(
                layers.document == before.document, "removing the layer did not give back the document before it")
        }
    } catch {
        precondition(
            layers.configuration == before.configuration, "a refused layer changed the configuration: \(error)")
        precondition(layers.document == before.document, "a refused layer changed the effective document: \(error)")
        precondition(Set(layers.layers.keys) == before.applied, "a refused layer changed the layers applied")
        precondition(!error.message.isEmpty, "a refusal without a message")
        precondition(error.file == source || error.file == fileName, "the refusal names another source: \(error)")
        let text = error.file == source ? payload : Array(fileText.utf8)
        let lines = yamlLineCount(String(decoding: text, as: UTF8.self))
        precondition(
            error.line >= 1 && error.line <= lines + 1 && error.column >= 0, "a refusal outside its text: \(error)")
        if let parsed = try? ConfigLayerDocument(payload: payload, source: source), !parsed.isEmpty {
            precondition(!error.key.isEmpty, "a refusal of a well-formed layer names no key: \(error)")
        }
    }
    return 0
}
