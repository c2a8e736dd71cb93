import BeaconWire
import Vocabulary

/// Where the locator places one beacon: the owning gateway with its floor and room, or `not_home`.
/// Published retained on `<base>/<beacon>/location`; read back by a locator that starts late.
package struct LocatorLocation: Sendable, Equatable {
    /// nil when `not_home`.
    package var gateway: String?
    package var floor: String?
    package var room: String?
    /// The owner's distance when the location was decided, metres.
    package var accuracy: Double?
    /// The tick at which this location was decided.
    package var since: Timestamp
    /// The owner's share of 1/distance over all fresh gateways (1 = only it sees the beacon).
    package var confidence: Double?
    /// The newest reading of any gateway at `since`.
    package var lastSeen: Timestamp?

    /// Home, but the belief engine can name no room with confidence (`locator.allow_unknown`):
    /// `room` is nil, `floor` the last one named.
    package var isUnknown: Bool = false
    /// The rooms the belief engine holds likely when it decided, most likely first.
    package var likely: [Likely] = []

    /// A room and how likely the belief engine held it.
    package struct Likely: Sendable, Equatable {
        package var floor: String?
        package var room: String
        package var probability: Double

        package init(floor: String?, room: String, probability: Double) {
            self.floor = floor
            self.room = room
            self.probability = probability
        }
    }

    package var isHome: Bool { gateway != nil }

    package init(
        gateway: String?, floor: String?, room: String?, accuracy: Double?, since: Timestamp, confidence: Double?,
        lastSeen: Timestamp?, isUnknown: Bool = false, likely: [Likely] = []
    ) {
        self.isUnknown = isUnknown
        self.likely = likely
        self.gateway = gateway
        self.floor = floor
        self.room = room
        self.accuracy = accuracy
        self.since = since
        self.confidence = confidence
        self.lastSeen = lastSeen
    }
}
