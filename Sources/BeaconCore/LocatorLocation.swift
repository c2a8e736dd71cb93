import BeaconWire
import Vocabulary

/// Where the locator places one beacon: its floor and room with the gateway that speaks for it,
/// `unknown` (belief engine), or `not_home`.
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

    /// The same place as `other`: gateway, floor, room and `unknown` (a new confidence is not a move).
    package func isSamePlace(as other: LocatorLocation?) -> Bool {
        guard let other else { return false }
        return gateway == other.gateway && floor == other.floor && room == other.room && isUnknown == other.isUnknown
    }

    /// The belief engine's confidence bands: 0 below `min_confidence`, 1 up to halfway from it to
    /// certainty, 2 beyond. A named room's location is published again when its band changes.
    /// Given the confidence it `was` in, a band is left only `bandMargin` past its edge, so a
    /// confidence hovering at an edge is not published again and again.
    package static func band(_ confidence: Double, _ minConfidence: Double, was: Double? = nil) -> Int {
        let edges = [minConfidence, (1 + minConfidence) / 2]
        let plain = edges.count { confidence >= $0 }
        guard let was else { return plain }
        let old = band(was, minConfidence)
        if plain > old { return edges.count { confidence >= $0 + bandMargin } > old ? plain : old }
        if plain < old { return edges.count { confidence >= $0 - bandMargin } < old ? plain : old }
        return old
    }
    package static let bandMargin = 0.1

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
