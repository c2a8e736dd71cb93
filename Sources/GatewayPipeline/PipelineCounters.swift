import BeaconCore

/// What the pipeline has seen, for the replay summary and the stats topic.
package struct PipelineCounters: Sendable, Equatable {
    /// Every packet handed in, including outgoing commands.
    package var packets = 0
    /// LE Advertising Report / LE Extended Advertising Report events.
    package var advertisingEvents = 0
    /// Other packets (other events, commands, ACL …): skipped.
    package var otherPackets = 0
    /// Advertising reports decoded.
    package var reports = 0
    /// Reports that carried a beacon with an identity (iBeacon, AltBeacon, Eddystone-UID).
    package var beacons = 0
    /// Reports that carried an Eddystone frame without identity (TLM, URL, EID, unknown).
    package var unidentifiedFrames = 0
    /// Reports from configured devices (by IRK or fixed address).
    package var devices = 0
    /// Reports from resolvable private addresses that no configured IRK resolved (dropped).
    package var unresolvedPrivateAddresses = 0
    /// Packets whose bytes could not be decoded (skipped; earlier reports in them still count).
    package var malformed = 0
    /// `malformed`, by reason.
    package var malformedReasons = MalformedCounts()
    package var monitor = MonitorCounters()

    package init() {}
}
