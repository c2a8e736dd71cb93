import BeaconCore
import Settings
import Vocabulary

/// What the agent core asks its shell to do, besides talking to the broker (`BrokerSession`).
package enum AgentAction: Sendable, Equatable {
    /// systemd's sd_notify(3) states.
    package enum ServiceNotice: Sendable, Equatable {
        case ready(status: String)
        case status(String)
        case reloading
        case stopping
    }

    case log(LogRecord)
    case notify(ServiceNotice)
    /// Stop the source and refuse its further events.
    case stopSource
    /// SIGHUP: read the configuration file again and answer with `AgentCore.reloaded(_:)`.
    case readConfiguration
    /// A configuration layer set over MQTT is due: apply it (an empty payload removes it) and answer
    /// with `AgentCore.layerApplied(_:source:_:)`.
    case applyConfigurationLayer(ConfigLayer, payload: [UInt8], source: String)
    /// `advertise:` changed (a reload or a layer): the source advertises this from now on (nil: nothing).
    case advertise(AdvertiseSettings?)
    /// `log_level` changed (a reload or a layer): log at this level from now on.
    case setLogLevel(LogLevel)
    /// What the embedded locator is built from changed (`LocatorSetup`): start it, reconfigure it
    /// or stop it, as this configuration's `locator.enabled` says.
    case configureLocator(Configuration)
}
