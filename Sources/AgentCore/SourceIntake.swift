import BeaconWire
import Vocabulary

/// What the agent core holds of its packet source between turns: the rest of a batch that waits
/// while no packets are taken (back-pressure), how far a capture's source has handed everything
/// over, the source's health, and the failure it ended with.
struct SourceIntake {
    /// The rest of a batch of packets (from the record at `offset`), waiting while the core takes
    /// no source events.
    var deferred: (batch: PacketBatch, offset: Int)?
    /// What a capture's source said it has handed over all packets before (`SourceEvent.caughtUp`).
    private(set) var caughtUp: Timestamp?
    /// Status `degraded` and the stats' reason while not healthy.
    var health = SourceHealth.healthy
    /// The source's `run` threw: the agent ends with the exit code it carries.
    var failure: (any SourceFailure)?

    mutating func caughtUp(to time: Timestamp) { caughtUp = max(caughtUp ?? time, time) }

    /// How far a capture's clock may run between packets: up to what the source has handed over
    /// entirely, and while packets wait in `deferred`, not past `newest`, the last one ingested.
    /// Beyond that a tick would fire before a packet stamped ahead of it (as `replay` never does);
    /// nil: no limit (a source that says nothing, such as a pipe, is live).
    func captureHorizon(newest: Timestamp?) -> Timestamp? {
        guard let caughtUp else { return nil }
        guard let newest else { return caughtUp }
        return deferred == nil ? max(caughtUp, newest) : newest
    }
}
