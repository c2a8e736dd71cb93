// libFuzzer target `config`: the YAML configuration loader (libyaml → ConfigDecoder → Configuration).
//
// Any bytes must give a Configuration or a ConfigError that names this file and a position inside
// the text (line ≥ 1, or 0 only for a file that cannot be read, which this never is); never a trap.
import BeaconConfig
import BeaconCore
import Settings

@_cdecl("LLVMFuzzerTestOneInput")
public func configFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    var warnings: [ConfigWarning] = []
    do throws(ConfigError) {
        let configuration = try ConfigLoader.parse(yaml: text, file: "fuzz.yaml", warnings: &warnings)
        precondition(
            configuration.mqtt.reconnect.maximum >= configuration.mqtt.reconnect.minimum,
            "reconnect_max < reconnect_min accepted"
        )
    } catch {
        precondition(error.file == "fuzz.yaml", "error names another file: \(error)")
        precondition(error.line >= 1 && error.column >= 0, "error without a position: \(error)")
        precondition(!error.message.isEmpty)
        let lines = yamlLineCount(text)
        precondition(error.line <= lines + 1, "error line \(error.line) past the text's \(lines) lines")
    }
    for warning in warnings { precondition(!"\(warning)".isEmpty) }
    return 0
}
