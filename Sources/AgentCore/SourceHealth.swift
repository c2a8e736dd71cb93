/// A source's health as it reports it: the gateway's status is `online` while healthy, `degraded`
/// otherwise, with the reason in the log and the stats.
package enum SourceHealth: Sendable, Equatable {
    case healthy
    /// Worded for the operator: "adapter hci0 is down", "HCI Reset timed out" …
    case degraded(reason: String)

    /// The reason, nil while healthy (the stats' `degraded` field).
    package var degradedReason: String? {
        if case .degraded(let reason) = self { return reason }
        return nil
    }
}
