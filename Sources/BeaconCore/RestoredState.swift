import BeaconWire

/// A state read back at start from our own retained `attributes` message.
public struct RestoredState: Sendable, Equatable {
    public enum Subject: Sendable, Hashable {
        /// `<base>/regions/<name>/<gw>/attributes`.
        case region(String)
        /// `<base>/<uuid>/<major>/<minor>/<gw>/attributes` or the Eddystone form.
        case beacon(BeaconIdentity)
    }

    public var subject: Subject
    /// `inside` or `outside`; `unknown` is ignored.
    public var state: RegionState
    public var since: Timestamp?
    public var lastSeen: Timestamp?

    public init(subject: Subject, state: RegionState, since: Timestamp?, lastSeen: Timestamp?) {
        self.subject = subject
        self.state = state
        self.since = since
        self.lastSeen = lastSeen
    }
}
