import BeaconCore
import Settings

@testable import BeaconConfig

/// The defaults the tests parse against: the loader's own defaults with a known host name.
let testDefaults: Configuration = {
    var config = Configuration()
    config.gateway.id = "pi-hall"
    return config
}()

/// Parses `yaml` as the file `test.yaml`.
func parse(_ yaml: String) throws(ConfigError) -> Configuration {
    try ConfigLoader.parse(yaml: yaml, file: "test.yaml", defaults: testDefaults)
}

/// The printed error for `yaml`, or nil when it parses.
func failure(_ yaml: String) -> String? {
    do {
        _ = try parse(yaml)
        return nil
    } catch {
        return error.description
    }
}

/// The printed warnings for `yaml` (empty when it fails to parse, which `#expect` then shows).
func warnings(_ yaml: String) -> [String] {
    var found: [ConfigWarning] = []
    do {
        _ = try ConfigLoader.parse(yaml: yaml, file: "test.yaml", defaults: testDefaults, warnings: &found)
    } catch {
        return ["error: \(error)"]
    }
    return found.map(\.description)
}
