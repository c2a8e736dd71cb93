import BeaconCore
import BeaconWire
import Vocabulary

/// A teach-in (`beacon2mqtt survey`, docs/locator.md, "Calibrating a site"): a beacon walked through
/// the site with the room it entered marked at each entry, and what the gateways published meanwhile.
///
/// It replays each walk through a fresh `Locator` on the messages' own clock, as `locate --clock
/// messages` decides, scores every whole second against the room marked last, and fits what a site
/// can fit: each gateway's `locator.rssi_offset`. The fit is a coordinate search in whole dB that
/// keeps a change only when it names more seconds right (fewer room changes, then smaller offsets,
/// break ties), so an offset moves only as far as the marks support it.
///
/// Pure: the caller reads the files or the broker and gives the messages and marks.
package struct SiteSurvey: Sendable {
    /// The user entered `room` at `time`; with a `point`, stood still there on `floor` until the
    /// next mark (a point of the site plan's survey, in `room`).
    package struct Mark: Sendable, Equatable {
        package var time: Timestamp
        package var room: String
        package var floor: String?
        package var point: SitePlan.Point?
        package init(time: Timestamp, room: String, floor: String? = nil, point: SitePlan.Point? = nil) {
            self.time = time
            self.room = room
            self.floor = floor
            self.point = point
        }
    }

    /// One gateway message of the surveyed beacon (a proximity reading or an exit event), with the
    /// timestamp its payload carries.
    package struct Message: Sendable, Equatable {
        package var time: Timestamp
        package var topic: String
        package var payload: String
    }

    /// One walk: its marks in time order and the beacon's messages in timestamp order.
    package struct Walk: Sendable {
        package var marks: [Mark]
        package var messages: [Message]
    }

    /// Seconds scored, seconds the locator named the marked room, and the room changes it made.
    package struct Score: Sendable, Equatable {
        package var seconds = 0
        package var right = 0
        package var changes = 0
        package var percent: Double { seconds == 0 ? 0 : 100 * Double(right) / Double(seconds) }
        package init() {}

        /// Better: more seconds right, then fewer changes.
        func beats(_ other: Score) -> Bool { (right, -changes) > (other.right, -other.changes) }
    }

    package let baseTopic: String
    package let beacon: BeaconIdentity
    package private(set) var walks: [Walk] = []
    /// The gateways that heard the beacon, sorted.
    package private(set) var gateways: [String] = []

    package init(baseTopic: String, beacon: BeaconIdentity) {
        self.baseTopic = baseTopic
        self.beacon = beacon
    }

    /// The beacon heard in the most proximity messages among `topics` (nil: none).
    package static func busiestBeacon(_ topics: [String], baseTopic: String) -> BeaconIdentity? {
        let tree = TopicTree(base: baseTopic)
        var counts: [BeaconIdentity: Int] = [:]
        var order: [BeaconIdentity] = []
        for topic in topics {
            guard case .beacon(let b, _, .proximity)? = tree.parse(topic) else { continue }
            if counts[b] == nil { order.append(b) }
            counts[b, default: 0] += 1
        }
        return order.max { counts[$0]! < counts[$1]! }
    }

    /// Adds a walk: the messages (any topics; those of the beacon's proximity and exit events are
    /// kept) and its marks. Returns the messages kept.
    @discardableResult
    package mutating func add(messages: [(topic: String, payload: String)], marks: [Mark]) -> Int {
        let tree = TopicTree(base: baseTopic)
        var kept: [Message] = []
        for m in messages {
            guard case .beacon(let b, let gateway, let leaf)? = tree.parse(m.topic), b == beacon,
                leaf == .proximity || leaf == .event,
                let o = try? JSONObject(m.payload),
                let time = o.string("timestamp").flatMap(RetainedAttributes.timestamp(rfc3339:))
            else { continue }
            kept.append(Message(time: time, topic: m.topic, payload: m.payload))
            if leaf == .proximity, !gateways.contains(gateway) {
                gateways.insert(gateway, at: gateways.firstIndex { gateway < $0 } ?? gateways.endIndex)
            }
        }
        // Stable: messages of one timestamp keep the order they were received in.
        let ordered = kept.indices.sorted { (kept[$0].time, $0) < (kept[$1].time, $1) }.map { kept[$0] }
        walks.append(Walk(marks: marks.sorted { $0.time < $1.time }, messages: ordered))
        return ordered.count
    }

    /// How the locator with `settings` does on every walk: each whole second from a walk's first mark
    /// to its last message, its location against the room marked last (`unknown` and none are wrong).
    package func score(_ settings: LocatorSettings, distance: DistanceSettings = DistanceSettings()) -> Score {
        var total = Score()
        for walk in walks { total.add(score(walk, settings, distance)) }
        return total
    }

    private func score(_ walk: Walk, _ settings: LocatorSettings, _ distance: DistanceSettings) -> Score {
        var s = Score()
        var named: String?
        replay(walk, settings, distance) { locator, _, mark in
            let l = locator.location(of: beacon)
            let room = l.flatMap { $0.isHome && !$0.isUnknown ? $0.room ?? $0.gateway : nil }
            s.seconds += 1
            if room == mark.room { s.right += 1 }
            if let room {
                if let named, named != room { s.changes += 1 }
                named = room
            }
        }
        return s
    }

    /// The room fingerprints the walks measured (docs/locator.md, "Room fingerprints"): each second
    /// from a walk's first mark, what the gateways published that the locator with `settings`
    /// weighs then (no locator calibration: fingerprints hold whatever offsets), as a sample of
    /// the room marked last, on the floor of a gateway of that room that hears the beacon (else of
    /// the strongest). nil: no second with a signal.
    package func fingerprints(
        _ settings: LocatorSettings, distance: DistanceSettings = DistanceSettings()
    )
        -> RoomFingerprints?
    {
        var settings = settings
        settings.belief.fingerprints = nil
        var samples: [RoomFingerprints.Sample] = []
        for walk in walks {
            replay(walk, settings, distance) { locator, t, mark in
                let heard = locator.published(of: beacon, at: t)
                guard let strongest = heard.max(by: { $0.signal < $1.signal }) else { return }
                let floor =
                    mark.floor ?? heard.first { $0.place.room == mark.room }?.place.floor ?? strongest.place.floor
                samples.append(
                    RoomFingerprints.Sample(
                        place: .init(floor: floor, room: mark.room),
                        signals: Dictionary(heard.map { ($0.gateway, $0.signal) }, uniquingKeysWith: { a, _ in a }),
                        power: locator.measuredPower(of: beacon)))
            }
        }
        return samples.isEmpty ? nil : RoomFingerprints.fit(samples)
    }

    /// Replays `walk` through a locator with `settings`, and at each whole second from its first
    /// mark to its last message, once that second is decided, calls `second` with the locator, the
    /// second and the mark in force.
    private func replay(
        _ walk: Walk, _ settings: LocatorSettings, _ distance: DistanceSettings,
        _ second: (Locator, Timestamp, Mark) -> Void
    ) {
        guard let first = walk.marks.first, let last = walk.messages.last else { return }
        var locator = Locator(settings: settings, baseTopic: baseTopic, distance: distance)
        let step = settings.interval
        var out: [OutboundMessage] = []
        var next = 0
        var mark = 0
        var t = Timestamp(microseconds: first.time.microseconds - first.time.microseconds % step.microseconds)
        if t < first.time { t = t + step }
        // A walk's messages before its first mark still warm the locator up.
        while t <= last.time {
            while next < walk.messages.count, walk.messages[next].time <= t + settings.settle {
                locator.handle(topic: walk.messages[next].topic, payload: walk.messages[next].payload)
                next += 1
            }
            locator.advance(to: t + settings.settle, into: &out)
            out.removeAll(keepingCapacity: true)
            while mark + 1 < walk.marks.count, walk.marks[mark + 1].time <= t { mark += 1 }
            second(locator, t, walk.marks[mark])
            t = t + step
        }
    }

    /// The `rssi_offset` per gateway that names the marked rooms best, starting from `settings`' own,
    /// each within `range` dB; the gateways whose offset stays 0 are left out.
    package func fitOffsets(
        _ settings: LocatorSettings, distance: DistanceSettings = DistanceSettings(), range: Int = 12
    ) -> [String: Double] {
        var s = settings
        var best = score(s, distance: distance)
        let cost = { (o: [String: Double]) in o.values.reduce(0) { $0 + abs($1) } }
        for _ in 0..<4 {
            var improved = false
            for g in gateways {
                let start = s.rssiOffsets[g] ?? 0
                for dB in -range...range where Double(dB) != start {
                    var trial = s
                    trial.rssiOffsets[g] = Double(dB)
                    let score = score(trial, distance: distance)
                    if score.beats(best)
                        || (score == best && cost(trial.rssiOffsets) < cost(s.rssiOffsets))
                    {
                        best = score
                        s = trial
                        improved = true
                    }
                }
            }
            if !improved { break }
        }
        return s.rssiOffsets.filter { $0.value != 0 }
    }

    /// Seconds after a point mark before the gateways' readings count: their filtered RSSI (a 5 s
    /// median by default) still remembers the walk there until about half its window has passed.
    static let standingSettle = TimeSpan.seconds(3)

    /// The survey points the walks' point marks measured (docs/locator.md, "A surveyed radio map"):
    /// for each, every gateway of the point's floor (`floorOf` gives a gateway's floor on the plan)
    /// that published the beacon's `rssi_filtered` meanwhile, its median over the whole seconds from
    /// `standingSettle` after the mark to the next mark (or the walk's last message), each second
    /// taking the newest value published; the beacon's `measured_power` as its messages there give
    /// it; as its `readings`, those seconds. A point with no such second is left out.
    package func points(floorOf: (String) -> String?) -> [SitePlan.SurveyPoint] {
        let tree = TopicTree(base: baseTopic)
        var out: [SitePlan.SurveyPoint] = []
        for walk in walks {
            // The walk's readings: time, gateway, filtered RSSI, measured power.
            var readings: [(time: Timestamp, gateway: String, rssi: Double, power: Double?)] = []
            for m in walk.messages {
                guard case .beacon(_, let gateway, .proximity)? = tree.parse(m.topic),
                    let o = try? JSONObject(m.payload), let rssi = o.number("rssi_filtered"), rssi.isFinite
                else { continue }
                readings.append((m.time, gateway, rssi, o.number("measured_power")))
            }
            guard let last = walk.messages.last?.time else { continue }
            for (i, mark) in walk.marks.enumerated() {
                guard let point = mark.point, let floor = mark.floor else { continue }
                let end = i + 1 < walk.marks.count ? walk.marks[i + 1].time : last
                var newest: [String: Double] = [:]
                var seconds: [String: [Double]] = [:]
                var powers: [Double] = []
                var next = 0
                var t = mark.time + Self.standingSettle
                while t <= end {
                    while next < readings.count, readings[next].time <= t {
                        let r = readings[next]
                        if floorOf(r.gateway) == floor {
                            newest[r.gateway] = r.rssi
                            if r.time >= mark.time, let p = r.power { powers.append(p) }
                        }
                        next += 1
                    }
                    for (gateway, rssi) in newest { seconds[gateway, default: []].append(rssi) }
                    t = t + .seconds(1)
                }
                guard !seconds.isEmpty else { continue }
                out.append(
                    SitePlan.SurveyPoint(
                        floor: floor, point: point, power: powers.isEmpty ? nil : PathLossCalibration.median(powers),
                        rssi: seconds.mapValues { PathLossCalibration.median($0) },
                        readings: seconds.values.map(\.count).max() ?? 1))
            }
        }
        return out
    }
}

extension SiteSurvey.Score {
    mutating func add(_ other: Self) {
        seconds += other.seconds
        right += other.right
        changes += other.changes
    }
}
