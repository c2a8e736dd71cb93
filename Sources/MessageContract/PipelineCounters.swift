import BeaconCore

/// What the pipeline has seen, for the replay summary and the stats topic.
public struct PipelineCounters: Sendable, Equatable {
    /// Every packet handed in, including outgoing commands.
    public var packets = 0
    /// LE Advertising Report / LE Extended Advertising Report events.
    public var advertisingEvents = 0
    /// Other packets (other events, commands, ACL …): skipped.
    public var otherPackets = 0
    /// Advertising reports decoded.
    public var reports = 0
    /// Reports that carried a beacon with an identity (iBeacon, AltBeacon, Eddystone-UID).
    public var beacons = 0
    /// Packets whose bytes could not be decoded (skipped; earlier reports in them still count).
    public var malformed = 0
    public var monitor = MonitorCounters()

    public init() {}
}
