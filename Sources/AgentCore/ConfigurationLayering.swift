import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// What the agent core gets from its shell when the configuration has layers set over MQTT
/// (`remote_config.enabled`): the shell keeps the layers (BeaconConfig's `ConfigLayers`, which the
/// core does not link) and their state files; the core decides when to apply and says what happened.
package protocol ConfigurationLayering: AnyObject {
    /// SIGHUP: the file read again, under the layers applied.
    func reloadFile() throws -> ConfigurationUpdate
    /// One layer set (an empty payload removes it); a refusal changes nothing.
    func apply(
        _ layer: ConfigLayer, payload: [UInt8], source: String, at time: Timestamp
    )
        -> Result<ConfigurationUpdate, ConfigurationRejection>
}

/// A configuration to run on, with what the broker should be told about it.
package struct ConfigurationUpdate: Sendable, Equatable {
    package var configuration: Configuration
    /// The effective configuration as JSON (secrets redacted), retained on `<base>/gateways/<gw>/config`.
    package var document: String?
    /// The layers now applied.
    package var layers: Set<ConfigLayer>
    /// What went wrong keeping the layer in the state directory (read-only, full): the layer
    /// applies all the same; only a restart without the broker would start without it.
    package var keepFailures: [String]

    package init(
        configuration: Configuration, document: String? = nil, layers: Set<ConfigLayer> = [],
        keepFailures: [String] = []
    ) {
        self.configuration = configuration
        self.document = document
        self.layers = layers
        self.keepFailures = keepFailures
    }
}

/// Why a layer was refused: `check-config`'s diagnostics (`<source>:line:column: key: message`).
package struct ConfigurationRejection: Error, Sendable, Equatable {
    package var diagnostics: [String]
    package init(diagnostics: [String]) { self.diagnostics = diagnostics }
}
