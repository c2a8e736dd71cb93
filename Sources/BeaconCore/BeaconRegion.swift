import BeaconWire
import Vocabulary

/// A monitored region, like CLBeaconRegion: a UUID (or Eddystone namespace) with optional
/// major/minor (or instance) constraints.
package struct BeaconRegion: Sendable, Equatable {
    /// Used in topics; validated as a topic level.
    package var name: String
    /// uuid scheme: the proximity UUID; eddystone scheme: the namespace in the high 10 bytes.
    package var scheme: BeaconIdentity.Scheme
    package var uuid: BeaconID128
    package var major: UInt16?
    package var minor: UInt16?
    /// Eddystone only: the 48-bit instance, when constrained.
    package var instance: UInt64?
    package var notifyEntry: Bool = true
    package var notifyExit: Bool = true
    /// Overrides monitoring.exit_timeout for this region.
    package var exitTimeout: TimeSpan? = nil

    package init(
        name: String, scheme: BeaconIdentity.Scheme = .uuid, uuid: BeaconID128, major: UInt16? = nil,
        minor: UInt16? = nil, instance: UInt64? = nil, notifyEntry: Bool = true, notifyExit: Bool = true,
        exitTimeout: TimeSpan? = nil
    ) {
        self.name = name
        self.scheme = scheme
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.instance = instance
        self.notifyEntry = notifyEntry
        self.notifyExit = notifyExit
        self.exitTimeout = exitTimeout
    }
}
