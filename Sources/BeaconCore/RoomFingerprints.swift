/// What each gateway publishes of a beacon in each room, as a teach-in measured it
/// (`locator.fingerprints`, docs/locator.md, "Room fingerprints"): per room and gateway, the mean
/// and spread of the signal while the beacon was there, and how often the gateway heard it.
///
/// A room is then as likely as its fingerprint explains a tick's signals, the gateways taken as
/// independent (naive Bayes). So a gateway by a wall no longer claims the room behind it: the
/// teach-in measured what it hears from either side, and what every other gateway hears there.
/// Pure: the caller gives the teach-in's seconds and the tick's signals.
package struct RoomFingerprints: Sendable, Equatable {
    /// One gateway's signal in one room.
    package struct Level: Sendable, Equatable {
        /// dBm: the mean of what it published while it heard the beacon there.
        package var mean: Double
        /// dB: the standard deviation about `mean`, at least `least`.
        package var spread: Double
        /// The share of the room's seconds it heard the beacon, Laplace-smoothed: (h + 1) / (n + 2),
        /// so neither hearing nor missing it is ever ruled out.
        package var heard: Double

        package init(mean: Double, spread: Double, heard: Double) {
            self.mean = mean
            self.spread = spread
            self.heard = heard
        }
    }

    /// One room's fingerprint: per gateway (by id), its level there.
    package struct Room: Sendable, Equatable {
        package var place: RoomBelief.Place
        package var levels: [String: Level]

        package init(place: RoomBelief.Place, levels: [String: Level]) {
            self.place = place
            self.levels = levels
        }
    }

    /// One second of a teach-in: the room the beacon was in and what each gateway that heard it
    /// published last (dBm).
    package struct Sample: Sendable, Equatable {
        package var place: RoomBelief.Place
        package var signals: [String: Double]

        package init(place: RoomBelief.Place, signals: [String: Double]) {
            self.place = place
            self.signals = signals
        }
    }

    /// dB: the least spread of a level. A room sampled in one still stance for a few seconds
    /// would otherwise be a needle that another stance in the same room misses by a few dB:
    /// half the belief engine's 4 dB spread of a filtered RSSI.
    package static let least = 2.0
    /// Spreads: a signal further than this from a room's mean counts as this far, so one reflected
    /// or blocked reading cannot rule a room out on its own.
    package static let reach = 5.0

    /// The rooms, in the order first sampled.
    package let rooms: [Room]
    /// Every gateway some room has a level for: the gateways whose readings and silence count.
    package let gateways: Set<String>

    package init(rooms: [Room]) {
        self.rooms = rooms
        gateways = Set(rooms.flatMap(\.levels.keys))
    }

    /// The fingerprints of the rooms `samples` visit. Every gateway heard in any sample gets a
    /// level in every room: where it never heard the beacon, its mean and spread are those of all
    /// its readings and its `heard` share is 1 / (n + 2).
    package static func fit(_ samples: [Sample]) -> RoomFingerprints {
        let gateways = Set(samples.flatMap(\.signals.keys)).sorted()
        var places: [RoomBelief.Place] = []
        for s in samples where !places.contains(s.place) { places.append(s.place) }
        let overall = Dictionary(
            uniqueKeysWithValues: gateways.map { g in (g, moments(samples.compactMap { $0.signals[g] })) })
        let rooms = places.map { place in
            let here = samples.filter { $0.place == place }
            var levels: [String: Level] = [:]
            for g in gateways {
                let values = here.compactMap { $0.signals[g] }
                let (mean, deviation) = values.isEmpty ? overall[g]! : moments(values)
                levels[g] = Level(
                    mean: mean, spread: max(deviation, least),
                    heard: (Double(values.count) + 1) / (Double(here.count) + 2))
            }
            return Room(place: place, levels: levels)
        }
        return RoomFingerprints(rooms: rooms)
    }

    /// Mean and standard deviation of `values` (not empty).
    static func moments(_ values: [Double]) -> (mean: Double, deviation: Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return (mean, variance.squareRoot())
    }

    /// Whether some room of `floor` has a fingerprint.
    package func covers(floor: String?) -> Bool { rooms.contains { $0.place.floor == floor } }

    /// The probability of each room on `floor` given a tick's `signals` (dBm by gateway, as
    /// published), the rooms equally likely beforehand: a gateway that hears the beacon by how well
    /// each room's level explains its signal, one that does not by how often it missed the beacon
    /// there. Gateways `offline`, and in a room the gateways it has no level for, say nothing.
    /// Empty: no room on `floor`, or no gateway with a level hears the beacon.
    package func shares(
        _ signals: [String: Double], on floor: String?, offline: Set<String> = []
    ) -> [(place: RoomBelief.Place, probability: Double)] {
        guard signals.keys.contains(where: gateways.contains) else { return [] }
        let rooms = self.rooms.filter { $0.place.floor == floor }
        guard !rooms.isEmpty else { return [] }
        let logs = rooms.map { room in
            var sum = 0.0
            for (g, level) in room.levels where !offline.contains(g) {
                if let s = signals[g] {
                    let r = min(abs(s - level.mean) / level.spread, Self.reach)
                    sum += Numerics.log(level.heard / level.spread) - r * r / 2
                } else {
                    sum += Numerics.log(1 - level.heard)
                }
            }
            return sum
        }
        let top = logs.max() ?? 0
        let weights = logs.map { Numerics.exp($0 - top) }
        let total = weights.reduce(0, +)
        return zip(rooms, weights).map { ($0.place, $1 / total) }
    }
}
