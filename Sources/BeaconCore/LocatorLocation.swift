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
    /// With a site plan: the position on `floor` (metres, the plan's axes) and its error radius
    /// (`PositionEstimator.Estimate`), as last published.
    package var position: Position?

    /// A point on the plan and how far from it the beacon may well be.
    package struct Position: Sendable, Equatable {
        package var x: Double
        package var y: Double
        package var radius: Double
        /// The tick that estimated it.
        package var at: Timestamp
        package init(x: Double, y: Double, radius: Double, at: Timestamp) {
            self.x = x
            self.y = y
            self.radius = radius
            self.at = at
        }

        /// Metres between the two points.
        package func distance(to other: Position) -> Double {
            let (dx, dy) = (x - other.x, y - other.y)
            return (dx * dx + dy * dy).squareRoot()
        }
    }

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

    /// The belief engine's confidence bands: 1 from `min_confidence` (the named room is as likely as
    /// naming it takes), 0 below (its evidence weakened). A named room's location is published again
    /// when its band changes: the room and its confidence went out when it was named, and a room is
    /// named at about `min_confidence`, so a finer band above would add a message, and a Home
    /// Assistant recorder row, to every move. Given the confidence it `was` in, the band is left
    /// only `bandMargin` past its edge, so a confidence hovering at the edge is not published again
    /// and again.
    package static func band(_ confidence: Double, _ minConfidence: Double, was: Double? = nil) -> Int {
        guard let was else { return confidence >= minConfidence ? 1 : 0 }
        return band(was, minConfidence) == 1
            ? (confidence < minConfidence - bandMargin ? 0 : 1) : (confidence >= minConfidence + bandMargin ? 1 : 0)
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
