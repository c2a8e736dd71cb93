/// What a gateway or a locator says on its retained status topic (docs/topics.md): the one place
/// these words are spelled. The MQTT session publishes `online` on connect and `offline` at a clean
/// stop and leaves `offline` as its will; the agent's core says `degraded` while its source is
/// unhealthy. Readers (the locator, `config set`'s confirmation, Home Assistant's availability)
/// compare against the same values.
package enum Availability: String, Sendable, Equatable, CaseIterable {
    case online
    case offline
    case degraded

    /// The payload's bytes.
    package var payload: [UInt8] { Array(rawValue.utf8) }
}
