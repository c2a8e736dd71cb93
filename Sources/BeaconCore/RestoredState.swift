import BeaconWire
import Vocabulary

/// A state read back at start from our own retained `attributes` message.
package struct RestoredState: Sendable, Equatable {
    package enum Subject: Sendable, Hashable {
        /// `<base>/regions/<name>/<gw>/attributes`.
        case region(String)
        /// `<base>/<uuid>/<major>/<minor>/<gw>/attributes` or the Eddystone form.
        case beacon(BeaconIdentity)
    }

    package var subject: Subject
    /// `inside` or `outside`; `unknown` is ignored.
    package var state: RegionState
    package var since: Timestamp?
    package var lastSeen: Timestamp?

    package init(subject: Subject, state: RegionState, since: Timestamp?, lastSeen: Timestamp?) {
        self.subject = subject
        self.state = state
        self.since = since
        self.lastSeen = lastSeen
    }
}
