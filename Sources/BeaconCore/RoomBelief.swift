/// How likely a beacon is to be in each place (a floor and a room) it may be in: the forward pass of
/// a hidden Markov model over places, taken once a tick from every gateway's evidence
/// (`LocatorSettings.Engine.belief`, docs/locator.md, "The belief engine").
///
/// - The places are rooms, not gateways: gateways of one room support each other, and a beacon
///   handed between two gateways of one room stays where it is.
/// - Every gateway counts: one that hears the beacon, by how strongly; one of a place that does not
///   hear it, as the `silent` level. A place whose gateways are all offline is as likely as they
///   would hear the beacon: as they last did, less how much more strongly the others hear it since
///   (a beacon that walked towards them walked away from it), and never more likely than the place
///   heard best, since no evidence is not evidence.
/// - A beacon in a place is near one of the place's gateways that hear it, any one as likely: the
///   place is as likely as the mean of their likelihoods, each a softmax of its signal with `spread`
///   dB (the spread of a filtered RSSI; 2 × spread stronger is e² ≈ 7 times as likely). A gateway
///   of the place that hears the beacon weakly so counts against it, where the strongest alone
///   would not.
/// - Between ticks the beacon stays with probability `stay`, else it moves to another place; to
///   another floor a `floorMove` times less often. So a still beacon needs several ticks of contrary
///   evidence before its most likely place changes, and a moving one as many as the evidence is
///   clear.
///
/// Pure: no clock; the caller gives the tick's evidence.
package struct RoomBelief: Sendable, Equatable {
    /// Where a beacon can be: a room on a floor. A gateway with no room names its own place.
    package struct Place: Hashable, Sendable, Comparable {
        package var floor: String?
        package var room: String

        package init(floor: String?, room: String) {
            self.floor = floor
            self.room = room
        }

        package static func < (a: Place, b: Place) -> Bool {
            ((a.floor ?? ""), a.room) < ((b.floor ?? ""), b.room)
        }
    }

    /// One gateway's fresh evidence at a tick.
    package struct Evidence: Sendable, Equatable {
        package var gateway: String
        package var place: Place
        /// dBm, the gateway's filtered RSSI with its calibration applied.
        package var signal: Double

        package init(gateway: String, place: Place, signal: Double) {
            self.gateway = gateway
            self.place = place
            self.signal = signal
        }
    }

    /// The model's constants. None is fitted to a site: they describe BLE and people.
    package struct Model: Sendable, Equatable {
        /// dB: the spread of a gateway's filtered RSSI around what its distance explains.
        package var spread: Double = 4
        /// dBm of a gateway that does not hear the beacon (below every BLE receiver's sensitivity).
        package var silent: Double = -100
        /// Probability that the beacon is still in its place one second later.
        package var stay: Double = 0.9
        /// How much less likely a move to another floor is than one on the same floor.
        package var floorMove: Double = 0.1
        /// Places below this probability are forgotten (they come back with evidence).
        package var forget: Double = 1e-4
        /// Places held at most (a beacon is heard in a few rooms at once).
        package var capacity: Int = 8
        /// Ticks of evidence before a beacon's first room is named: the gateways that hear a beacon
        /// each send their first reading within a ranging interval or two of each other.
        package var firstTicks: Int = 3
        /// A tick that moved no probability by more than this left the belief at its fixed point
        /// for the evidence: the same evidence again is not weighed. A ten-thousandth moves no
        /// decision (`min_confidence` and the confidence bands are tenths), where a tighter one
        /// weighs a beacon whose rooms are alike (a position split between two) for many ticks.
        package var settled: Double = 1e-4

        package init() {}
    }

    /// The places held, sorted, and their probabilities (summing to 1).
    package private(set) var places: [Place] = []
    package private(set) var probabilities: [Double] = []
    /// The gateways seen in each place, to tell one that is offline from one that does not hear.
    private var gateways: [[String]] = []
    /// Per place, the last tick its gateways heard the beacon: how strongly they did, and how
    /// strongly the other places' gateways did (`silent` if none), for when they go offline.
    private var lastHeard: [Heard?] = []

    /// Signals at a tick a place was heard, dBm.
    private struct Heard: Sendable, Equatable {
        var own: Double
        var others: Double
    }
    /// Ticks of evidence since the belief was empty.
    package private(set) var updates = 0

    package init() {}

    /// The most likely place and its probability; nil before any evidence.
    package var best: (place: Place, probability: Double)? {
        guard var i = probabilities.indices.first else { return nil }
        for j in probabilities.indices where probabilities[j] > probabilities[i] { i = j }
        return (places[i], probabilities[i])
    }

    /// The probability of `place` (0 when not held).
    package func probability(of place: Place) -> Double {
        places.firstIndex(of: place).map { probabilities[$0] } ?? 0
    }

    /// The `count` most likely places, most likely first, each at least `atLeast` likely.
    package func ranked(_ count: Int, atLeast: Double) -> [(place: Place, probability: Double)] {
        Array(
            zip(places, probabilities).filter { $0.1 >= atLeast }
                .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
                .prefix(count)
                .map { (place: $0.0, probability: $0.1) })
    }

    /// One tick: `seconds` since the last one, the fresh evidence, and the gateways offline.
    /// Returns the largest change of any probability (0: the belief is settled for this evidence).
    @discardableResult
    package mutating func update(seconds: Double, evidence: [Evidence], offline: Set<String>, _ m: Model) -> Double {
        let oldPlaces = places
        // The probabilities before, on the stack: a copy of the array would be copied again at
        // the first write.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: probabilities.count) { before in
            _ = before.initialize(from: probabilities)
            admit(evidence, m)
            predict(seconds: seconds, m)
            observe(evidence, offline: offline, m)
            if !evidence.isEmpty { updates += 1 }
            prune(m)
            guard places == oldPlaces else { return 1 }
            var change = 0.0
            for i in probabilities.indices { change = max(change, abs(probabilities[i] - before[i])) }
            return change
        }
    }

    /// Starts an empty belief from a place already known (a location read back at start), certain
    /// until evidence weighs on it; `gateway` is the place's gateway that had placed it there.
    package mutating func seed(_ place: Place, gateway: String) {
        guard places.isEmpty else { return }
        places = [place]
        probabilities = [1]
        gateways = [[gateway]]
        lastHeard = [nil]
    }

    /// One tick of the same evidence as the last update's, which left the belief at its fixed
    /// point: only the ticks of evidence count on.
    package mutating func repeated() {
        updates += 1
    }

    /// New places from the evidence: the first tick's share the belief evenly; later ones each get
    /// the mass one tick's moves would give it.
    private mutating func admit(_ evidence: [Evidence], _ m: Model) {
        let wasEmpty = places.isEmpty
        for e in evidence {
            if let i = places.firstIndex(of: e.place) {
                if !gateways[i].contains(e.gateway) { gateways[i].append(e.gateway) }
                continue
            }
            let i = places.firstIndex { e.place < $0 } ?? places.endIndex
            let share = wasEmpty ? 0 : (1 - m.stay) / Double(places.count + 1)
            for j in probabilities.indices { probabilities[j] *= 1 - share }
            places.insert(e.place, at: i)
            probabilities.insert(share, at: i)
            gateways.insert([e.gateway], at: i)
            lastHeard.insert(nil, at: i)
        }
        if wasEmpty, !places.isEmpty {
            probabilities = [Double](repeating: 1 / Double(places.count), count: places.count)
        }
    }

    /// The motion model: stay with `stay` per second, else move, to another floor `floorMove` as often.
    private mutating func predict(seconds: Double, _ m: Model) {
        let n = places.count
        guard n > 1 else { return }
        let stay = Numerics.pow(m.stay, max(seconds, 0))
        // Scratch on the stack: a heap array a tick, at every beacon, cost more than the sums.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { floors in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: n) { next in
                // Each place's floor as the index of the first place on that floor: the n² pairs
                // below compare integers, not floor names.
                floors[0] = 0
                for i in 1..<n { floors[i] = places.firstIndex { $0.floor == places[i].floor } ?? i }
                next.initialize(repeating: 0)
                for j in 0..<n {
                    var weights = 0.0
                    for i in 0..<n where i != j { weights += floors[i] == floors[j] ? 1 : m.floorMove }
                    next[j] += stay * probabilities[j]
                    let moving = (1 - stay) * probabilities[j] / weights
                    for i in 0..<n where i != j { next[i] += moving * (floors[i] == floors[j] ? 1 : m.floorMove) }
                }
                for j in 0..<n { probabilities[j] = next[j] }
            }
        }
    }

    /// Bayes' rule with the tick's evidence. A place none of whose gateways can speak (all offline)
    /// is weighed by what they would hear (`mute`).
    private mutating func observe(_ evidence: [Evidence], offline: Set<String>, _ m: Model) {
        guard !evidence.isEmpty else { return }
        var top = m.silent
        for e in evidence { top = max(top, e.signal) }
        // Per place, the sum of its hearing gateways' likelihoods (relative to the strongest), how
        // many they are, and the strongest of them; scratch on the stack, as in `predict`.
        let n = places.count
        let total = withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * n) { scratch in
            scratch.initialize(repeating: 0)
            let (sums, counts, strongest) = (
                scratch.baseAddress!, scratch.baseAddress! + n, scratch.baseAddress! + 2 * n
            )
            for i in 0..<n { strongest[i] = m.silent }
            for e in evidence {
                let i = places.firstIndex(of: e.place)!
                sums[i] += Numerics.exp((e.signal - top) / m.spread)
                counts[i] += 1
                strongest[i] = max(strongest[i], e.signal)
            }
            var total = 0.0
            for i in 0..<n {
                let likelihood: Double
                if counts[i] > 0 {
                    likelihood = sums[i] / counts[i]
                    var others = m.silent
                    for j in 0..<n where j != i { others = max(others, strongest[j]) }
                    lastHeard[i] = Heard(own: strongest[i], others: others)
                } else if offline.isEmpty || gateways[i].contains(where: { !offline.contains($0) }) {
                    likelihood = Numerics.exp((m.silent - top) / m.spread)
                } else {
                    likelihood = Self.mute(lastHeard[i], top: top, m)
                }
                probabilities[i] *= likelihood
                total += probabilities[i]
            }
            return total
        }
        guard total > 0 else {
            probabilities = [Double](repeating: 1 / Double(places.count), count: places.count)
            return
        }
        for i in probabilities.indices { probabilities[i] /= total }
    }

    /// The likelihood of a place whose gateways are all offline, relative to the strongest signal
    /// `top` of the others: its gateways would hear the beacon as they last did, less how much more
    /// strongly the others hear it than then; at most 1, as the place heard best. Without a
    /// reading of its own (a place restored at start), 1.
    private static func mute(_ heard: Heard?, top: Double, _ m: Model) -> Double {
        guard let heard else { return 1 }
        let would = heard.own - max(0, top - heard.others)
        return Numerics.exp((min(would, top) - top) / m.spread)
    }

    /// The probability held by places whose gateways are all `offline`: where the beacon may be
    /// though nothing can say so.
    package func muted(_ offline: Set<String>) -> Double {
        guard !offline.isEmpty else { return 0 }
        var sum = 0.0
        for i in places.indices where !gateways[i].isEmpty && gateways[i].allSatisfy(offline.contains) {
            sum += probabilities[i]
        }
        return sum
    }

    /// Forgets the unlikely places and keeps at most `capacity`, so memory stays bounded.
    private mutating func prune(_ m: Model) {
        var keep = probabilities.indices.filter { probabilities[$0] >= m.forget }
        if keep.count > m.capacity {
            keep = Array(keep.sorted { probabilities[$0] > probabilities[$1] }.prefix(m.capacity)).sorted()
        }
        guard keep.count < places.count else { return }
        places = keep.map { places[$0] }
        gateways = keep.map { gateways[$0] }
        lastHeard = keep.map { lastHeard[$0] }
        probabilities = keep.map { probabilities[$0] }
        let total = probabilities.reduce(0, +)
        if total > 0 { for i in probabilities.indices { probabilities[i] /= total } }
    }
}
