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
        /// dBm: the measured power (RSSI at 1 m) of the beacon the teach-in walked, when it
        /// advertised one. A beacon of another power is weighed as if it had this one: a tag 6 dB
        /// weaker than the phone that taught the rooms reads 6 dB lower at every gateway. nil: levels
        /// are taken as they are, whatever the beacon.
        package var power: Double?

        package init(place: RoomBelief.Place, levels: [String: Level], power: Double? = nil) {
            self.place = place
            self.levels = levels
            self.power = power
        }
    }

    /// One second of a teach-in: the room the beacon was in, what each gateway that heard it
    /// published last (dBm), and the beacon's measured power when it advertises one.
    package struct Sample: Sendable, Equatable {
        package var place: RoomBelief.Place
        package var signals: [String: Double]
        package var power: Double?

        package init(place: RoomBelief.Place, signals: [String: Double], power: Double? = nil) {
            self.place = place
            self.signals = signals
            self.power = power
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
    /// Per floor, its rooms' levels laid out for a tick (`shares`).
    private let floors: [String?: Floor]

    /// One floor's rooms with their levels in a table, a row per room and a column per gateway
    /// with a level on the floor. A tick looks up its hearing gateways' columns once and starts each
    /// room from its all-silent sum, so a room costs the gateways that hear the beacon, not all
    /// the floor's: hashing every room's levels cost a campus of 20,000 beacons 15 times the rest
    /// of its tick.
    private struct Floor: Sendable, Equatable {
        var places: [RoomBelief.Place] = []
        var columns: [String: Int] = [:]
        /// Row-major, `places.count` × `columns.count`.
        var terms: [Term] = []
        /// Per room, the log-likelihood of no gateway of the floor hearing the beacon.
        var silence: [Double] = []
        /// Per room, the taught beacon's measured power (`Room.power`).
        var powers: [Double?] = []
    }

    /// A level as a tick weighs it. A room with no level for a column says nothing of it: an
    /// infinite spread and no log-likelihood either way.
    private struct Term: Sendable, Equatable {
        var mean = 0.0
        var spread = Double.infinity
        /// log(heard / spread), for a reading; log(1 − heard), for silence.
        var hearing = 0.0
        var missing = 0.0

        init() {}

        init(_ level: Level) {
            mean = level.mean
            spread = level.spread
            hearing = Numerics.log(level.heard / level.spread)
            missing = Numerics.log(1 - level.heard)
        }
    }

    package init(rooms: [Room]) {
        self.rooms = rooms
        var floors: [String?: Floor] = [:]
        for room in rooms where floors[room.place.floor] == nil {
            var f = Floor()
            let here = rooms.filter { $0.place.floor == room.place.floor }
            f.places = here.map(\.place)
            for (i, g) in Set(here.flatMap(\.levels.keys)).sorted().enumerated() { f.columns[g] = i }
            let width = f.columns.count
            f.terms = [Term](repeating: Term(), count: here.count * width)
            for (r, room) in here.enumerated() {
                for (g, level) in room.levels { f.terms[r * width + f.columns[g]!] = Term(level) }
            }
            f.silence = here.indices.map { r in f.terms[(r * width)..<((r + 1) * width)].reduce(0) { $0 + $1.missing } }
            f.powers = here.map(\.power)
            floors[room.place.floor] = f
        }
        self.floors = floors
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
            let powers = here.compactMap(\.power)
            let power = powers.isEmpty ? nil : (powers.reduce(0, +) / Double(powers.count) * 10).rounded() / 10
            return Room(place: place, levels: levels, power: power)
        }
        return RoomFingerprints(rooms: rooms)
    }

    /// Mean and standard deviation of `values` (not empty).
    static func moments(_ values: [Double]) -> (mean: Double, deviation: Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return (mean, variance.squareRoot())
    }

    /// The gateways with a level on `floor`: those that weigh on its rooms; nil for a floor no
    /// fingerprint covers.
    package func gateways(on floor: String?) -> [String]? {
        floors[floor].map { Array($0.columns.keys) }
    }

    /// The probability of each room on `floor` given a tick's `signals` (dBm by gateway, as
    /// published), the rooms equally likely beforehand: a gateway that hears the beacon by how well
    /// each room's level explains its signal, one that does not by how often it missed the beacon
    /// there. Gateways `offline`, and in a room the gateways it has no level for, say nothing.
    /// A beacon's `power` (its measured power) against the taught one's (`Room.power`) shifts its
    /// signals first, when both are known. Empty: no room on `floor`, or no gateway with a level
    /// there hears the beacon.
    package func shares(
        _ signals: [(gateway: String, signal: Double)], on floor: String?, offline: Set<String> = [],
        power: Double? = nil
    ) -> [(place: RoomBelief.Place, probability: Double)] {
        guard let f = floors[floor] else { return [] }
        let width = f.columns.count
        // Per column: 0 silent, 1 heard (its signal in `signal`), 2 offline; then the columns not
        // silent, the only ones a room's all-silent sum needs corrected. Scratch on the stack.
        return withUnsafeTemporaryAllocation(of: (state: UInt8, signal: Double).self, capacity: width) { columns in
            columns.initialize(repeating: (0, 0))
            var heard = false
            for (g, signal) in signals {
                guard let c = f.columns[g] else { continue }
                columns[c] = (1, signal)
                heard = true
            }
            guard heard else { return [] }
            for g in offline { if let c = f.columns[g] { columns[c].state = 2 } }
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: width) { spoken in
                var n = 0
                for c in 0..<width where columns[c].state != 0 {
                    spoken[n] = c
                    n += 1
                }
                return withUnsafeTemporaryAllocation(of: Double.self, capacity: f.places.count) { logs in
                    var top = -Double.infinity
                    f.terms.withUnsafeBufferPointer { terms in
                        for r in f.places.indices {
                            var sum = f.silence[r]
                            // dB this beacon reads above the taught one (0 when either is unknown).
                            var shift = 0.0
                            if let power, let taught = f.powers[r] { shift = power - taught }
                            let row = terms.baseAddress! + r * width
                            for c in spoken[0..<n] {
                                let term = row[c]
                                sum -= term.missing
                                guard columns[c].state == 1 else { continue }
                                let z = min(abs(columns[c].signal - shift - term.mean) / term.spread, Self.reach)
                                sum += term.hearing - z * z / 2
                            }
                            logs[r] = sum
                            top = max(top, sum)
                        }
                    }
                    var total = 0.0
                    for r in f.places.indices {
                        logs[r] = Numerics.exp(logs[r] - top)
                        total += logs[r]
                    }
                    return f.places.indices.map { (f.places[$0], logs[$0] / total) }
                }
            }
        }
    }
}
