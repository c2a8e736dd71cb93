import BeaconCore
import BeaconWire
import Vocabulary

/// Places every beacon at one gateway (floor, room) from all gateways' `proximity` messages, with
/// hysteresis against room flapping (peers.md pain point 1), and publishes where it is.
///
/// Pure and deterministic: readings carry the gateways' timestamps, decisions are taken on ticks at
/// whole multiples of `interval` from the readings stamped at or before the tick, and a tick is
/// decided once the clock passed it by `settle`. So two locators fed the same messages publish the
/// same locations with the same `since`, and one that starts late adopts the retained locations and
/// converges. The rules are in `LocatorTrack` (`believed`, `qualifies`) and docs/locator.md.
///
/// Output: retained `<base>/<beacon>/location` (and `<base>/<beacon>/room` with Home Assistant discovery), a `<base>/<beacon>/event` (`location` or `not_home`)
/// on every change, and optionally Home Assistant `mqtt_room` messages.
package struct Locator: Sendable {
    package private(set) var settings: LocatorSettings
    package private(set) var qos: Int
    /// How distances are recomputed for gateways with an `rssi_offset` (as the gateways range).
    package private(set) var distance: DistanceSettings
    /// Also publish the retained plain-text `<base>/<beacon>/room` (Home Assistant's room tracker reads it).
    package private(set) var publishesRoom: Bool
    /// Learns device names from the topics it reads (a device's topic level is its name).
    private(set) var topics: TopicTree

    /// The gateways' fitted offsets and the site plan's position estimator.
    package private(set) var site: LocatorSite
    /// Where the fit is published, retained (`TopicTree.locatorCalibration`); nil: not published.
    package var calibrationTopic: String?

    private(set) var tracks = LocatorTracks()
    private(set) var offline: Set<String> = []
    /// The gateways' clocks against the receive clock, when messages come with one (`handle(topic:payload:received:)`).
    package private(set) var clocks: GatewayClocks
    /// Decide every track at the next tick: the offline gateways or the settings changed, which
    /// every decision reads.
    private var everyTrackDue = true
    /// Decide every track at every tick, as the rule is written, instead of only those with a
    /// message since their last decision or a due `LocatorTrack.nextDecision`. The output is the
    /// same (LocatorSchedulingTests); this is the reference the tests compare with.
    package var decidesEveryTrack = false
    /// The ticks decided and the readings' times they start from.
    package private(set) var timeline = LocatorTimeline()
    /// Changes, decisions and other shards' messages since start.
    package private(set) var counts = LocatorCounts()

    /// Ticks decided in one `advance` at most; a longer gap (a suspended process) skips the oldest.
    static let maxTicksPerAdvance: Int64 = 600

    package init(
        settings: LocatorSettings = LocatorSettings(), baseTopic: String = "beacons", qos: Int = 1,
        distance: DistanceSettings = DistanceSettings(), publishesRoom: Bool = false
    ) {
        self.settings = settings
        self.qos = qos
        self.distance = distance
        self.publishesRoom = publishesRoom
        topics = TopicTree(base: baseTopic)
        clocks = GatewayClocks(tolerance: settings.clockTolerance)
        site = LocatorSite(settings)
    }

    /// `mqtt.base_topic`: what every topic the locator reads and writes starts with.
    package var baseTopic: String { topics.base }

    /// What a locator subscribes to: proximity and exit events of every gateway, gateway status,
    /// and the retained locations (read back at start).
    package static func subscriptions(baseTopic: String) -> [String] {
        TopicTree(base: baseTopic).locatorSubscriptions
    }

    /// Exact retained-location topics read back besides the wildcard ones (the configured beacons' and
    /// devices', `TopicTree.locations(of:)`): on RabbitMQ only these bring a restarted locator its locations.
    package var readBackTopics: [String] = []

    /// What this locator subscribes to: `subscriptions(baseTopic:)` and `readBackTopics`.
    package var subscriptions: [String] { Self.subscriptions(baseTopic: baseTopic) + readBackTopics }

    /// New settings while running: every track (readings, owner, dwell) and the ticks decided so far
    /// are kept, and the rule applies them from the next tick. Switching the room topic on
    /// publishes each current location's room at once (Home Assistant's tracker reads it).
    package mutating func reconfigure(
        settings: LocatorSettings, qos: Int, distance: DistanceSettings, publishesRoom: Bool,
        into out: inout [OutboundMessage]
    ) {
        let roomSwitchedOn = publishesRoom && !self.publishesRoom
        site.reconfigure(settings, was: self.settings)
        self.settings = settings
        self.qos = qos
        self.distance = distance
        self.publishesRoom = publishesRoom
        clocks.tolerance = settings.clockTolerance
        everyTrackDue = true
        // Another shard: the beacons it no longer owns are dropped (their locator publishes them).
        if let shard = settings.shard {
            for beacon in tracks.remove(where: { !shard.owns($0) }) where beacon.scheme == .device {
                topics.forgetDevice(beacon)
            }
        }
        guard roomSwitchedOn else { return }
        let composer = LocatorComposer(topics: topics, qos: qos)
        for beacon in tracks.order { if let l = tracks[beacon]?.location { out.append(composer.room(beacon, l)) } }
    }

    /// Every current location (and room, when published) as the retained messages that state it,
    /// to publish again after a reconnect: the broker may have lost them (amqtt keeps none across a
    /// restart, RabbitMQ's on-disk store loses what it had not saved when it crashes).
    package func retainedLocations(into out: inout [OutboundMessage]) {
        let composer = LocatorComposer(topics: topics, qos: qos)
        for beacon in tracks.order {
            guard let l = tracks[beacon]?.location else { continue }
            out.append(composer.location(beacon, l))
            if publishesRoom { out.append(composer.room(beacon, l)) }
        }
    }

    /// The current location of a beacon, nil when never located.
    package func location(of beacon: BeaconIdentity) -> LocatorLocation? { tracks[beacon]?.location }

    /// The measured power `beacon`'s readings advertise (dBm at 1 m); nil when they carry none.
    package func measuredPower(of beacon: BeaconIdentity) -> Double? { tracks[beacon]?.measuredPower }

    /// What the gateways published of `beacon` that counts at tick `t` (`LocatorTrack.published`).
    package func published(of beacon: BeaconIdentity, at t: Timestamp) -> [RoomBelief.Evidence] {
        tracks[beacon]?.published(at: t, settings, offline: offline) ?? []
    }

    /// Feeds one received message; returns false when it is none of the subscribed kinds. With
    /// `received` (the locator's wall clock at its arrival), each gateway's timestamps are checked
    /// against it and taken onto it (`GatewayClocks`); without, they are taken as they are (a replay).
    @discardableResult
    package mutating func handle(topic: String, payload: String, received: Timestamp? = nil) -> Bool {
        // A device's name is learnt once it has a track, so memory follows the tracks (see `decide`).
        defer {
            if let name = topics.deviceName(in: topic), tracks[.device(named: name)] != nil {
                topics.learnDevice(in: topic)
            }
        }
        switch topics.parse(topic) {
        case .beacon(let beacon, _, .proximity)? where !owns(beacon) && !site.calibrator.isGateway(beacon),
            .beacon(let beacon, _, .event)? where !owns(beacon), .location(let beacon)? where !owns(beacon):
            // Another shard's beacon: skipped before its payload is read.
            counts.otherShard += 1
        case .beacon(let beacon, let gateway, .proximity)?:
            guard var r = LocatorReading(beacon: beacon, gateway: gateway, payload: payload) else {
                return malformed(payload)
            }
            if let received {
                guard let stamp = clocks.admit(r.timestamp, gateway: gateway, received: received) else { return true }
                r.timestamp = stamp
            }
            observe(r)
        case .location(let beacon)?:
            guard let l = LocatorLocation.retained(payload: payload) else { return malformed(payload) }
            restore(beacon, l)
        case .gatewayStatus(let gateway)?:
            guard let availability = Availability(rawValue: payload) else { return malformed(payload) }
            // A degraded gateway's source reports a problem (its adapter gone or down, scanning
            // off): it hears nothing, so its silence is no evidence, as an offline gateway's.
            setGateway(gateway, online: availability == .online)
        case .gatewayAdvertising(let gateway)?:
            site.calibrator.announce(gateway: gateway, payload: payload)
        case .beacon(let beacon, let gateway, .event)?:
            guard let o = try? JSONObject(payload), let event = o.string("event"),
                let at = o.string("timestamp").flatMap(RetainedAttributes.timestamp(rfc3339:))
            else { return malformed(payload) }
            guard event == "exit" else { return true }
            gatewayLost(beacon, gateway: gateway, at: received == nil ? at : clocks.correct(at, gateway: gateway))
        default:
            return false
        }
        return true
    }

    /// A message of a kind the locator reads whose payload it cannot: counted, and nothing changes.
    /// An empty one is a retained message cleared, not a bad one. Returns false, as `handle` does.
    private mutating func malformed(_ payload: String) -> Bool {
        if !payload.isEmpty { counts.malformed += 1 }
        return false
    }

    /// Whether this locator decides `beacon` (`locator.shard`; without one, every beacon).
    package func owns(_ beacon: BeaconIdentity) -> Bool { settings.shard?.owns(beacon) ?? true }

    /// One proximity reading. Unknown distances (accuracy < 0) are ignored, and so are beacons of
    /// another shard.
    package mutating func observe(_ r: LocatorReading) {
        site.calibrator.observe(r)
        guard owns(r.beacon), let d = effectiveDistance(r) else { return }
        timeline.read(r.timestamp)
        if !offline.isEmpty, offline.remove(r.gateway) != nil { everyTrackDue = true }
        let (keep, decided, signal) = (settings.handOver.historyWindow, timeline.lastTick, signal(r))
        let offset = signal == nil ? 0 : offset(of: r.gateway) ?? 0
        tracks.edit(r.beacon) {
            if let name = r.name { $0.name = name }
            if let power = r.measuredPower { $0.measuredPower = Double(power) }
            $0.insert(
                .init(
                    timestamp: r.timestamp, distance: d, floor: r.floor, room: r.room, signal: signal,
                    offset: offset),
                gateway: r.gateway, keep: keep, decided: decided)
        }
    }

    /// A foreign node's reading (`ForeignSourceReader`), observed as a gateway's; a configured
    /// device's name is learnt as its own topics would teach it, so its location is published under it.
    package mutating func observe(_ r: LocatorReading, device: String?) {
        // A node hearing a gateway's advertisement calibrates; the gateway is no beacon to place.
        guard !site.calibrator.isGateway(r.beacon) else { return site.calibrator.observe(r) }
        observe(r)
        if let device, tracks[r.beacon] != nil { topics.learnDevice(named: device) }
    }

    /// A gateway's retained status. It carries no timestamp, so it applies from the next tick.
    package mutating func setGateway(_ id: String, online: Bool) {
        let changed = online ? offline.remove(id) != nil : offline.insert(id).inserted
        if changed { everyTrackDue = true }
    }

    /// A gateway's exit event: its readings stamped before `at` stop counting from `at` on.
    package mutating func gatewayLost(_ beacon: BeaconIdentity, gateway: String, at: Timestamp) {
        guard owns(beacon), tracks[beacon] != nil else { return }
        tracks.edit(beacon) { $0.lose(gateway: gateway, at: at) }
    }

    /// A retained location read back at start; ignored once the beacon has a location of its own.
    package mutating func restore(_ beacon: BeaconIdentity, _ location: LocatorLocation) {
        guard owns(beacon) else { return }
        tracks.edit(beacon) { $0.restore(location) }
    }

    /// The wall clock the locator decides by stepped by `delta` (NTP, `date -s`); the gateways on this
    /// host stamp their readings by it too. Every time held moves with it — readings, exit events,
    /// locations, the last decided tick (to the tick grid) — so the step ages no reading, sends no
    /// beacon `not_home` and holds no decision back: the rule's timeouts run on as the monotonic clock does.
    package mutating func shiftTimeline(by delta: TimeSpan) {
        timeline.shift(by: delta, step: tickStep)
        for beacon in tracks.order { tracks.byBeacon[beacon]!.shift(by: delta) }
        clocks.shift(by: delta)
        // Every track's next decision moved with it, and the tick grid may have: decide all again.
        everyTrackDue = true
    }

    /// The tick grid's step in µs: `locator.interval`, at least a millisecond.
    private var tickStep: Int64 { max(settings.interval.microseconds, 1000) }

    /// When the next tick can be decided (it + `settle`), on the locator's clock; nil before any reading.
    package var nextDue: Timestamp? { timeline.nextTick(step: tickStep).map { $0 + settings.settle } }

    /// Decides every tick T with T + settle ≤ now that was not decided yet.
    package mutating func advance(to now: Timestamp, into out: inout [OutboundMessage]) {
        clocks.report(base: baseTopic, qos: qos, into: &out)
        let step = tickStep
        let due = Timestamp(
            microseconds: LocatorTimeline.floorTick(now.microseconds - settings.settle.microseconds, step))
        if site.calibrator.refit(), let topic = calibrationTopic {
            out.append(
                OutboundMessage(
                    topic: topic, payload: .json(site.calibrator.payload()), qos: qos, retain: true, kind: .status))
        }
        var t = timeline.nextTick(step: step) ?? due
        if due - t > TimeSpan(microseconds: step * Self.maxTicksPerAdvance) {
            t = due - TimeSpan(microseconds: step * Self.maxTicksPerAdvance)
        }
        while t <= due {
            decide(at: t, into: &out)
            timeline.decided(t)
            t = t + TimeSpan(microseconds: step)
        }
    }

    /// Decides tick `t` for every track whose decision can change at `t` (a message since its last
    /// decision, or its `nextDecision` due), in beacon order; the others would decide nothing.
    private mutating func decide(at t: Timestamp, into out: inout [OutboundMessage]) {
        let all = everyTrackDue || decidesEveryTrack
        everyTrackDue = false
        mapSurvey()
        let placement = site.placement(settings)
        var gone = false
        for beacon in tracks.order {
            // One lookup, and the track is edited in place: a copy taken out of the dictionary
            // would copy its readings' storage at the first change, every tick.
            guard let i = tracks.byBeacon.index(forKey: beacon) else { continue }
            if !all, let due = tracks.byBeacon.values[i].nextDecision, due > t { continue }
            counts.decisions += 1
            if let change = tracks.byBeacon.values[i].decide(at: t, settings, offline: offline, site: placement) {
                let composer = LocatorComposer(topics: topics, qos: qos)
                out.append(composer.location(beacon, change.current))
                // A new confidence band of the same place is the location again, not a move.
                if !change.current.isSamePlace(as: change.previous) {
                    counts.changes += 1
                    if publishesRoom { out.append(composer.room(beacon, change.current)) }
                    out.append(
                        composer.event(
                            beacon, name: tracks.byBeacon.values[i].name, change.current, previous: change.previous,
                            at: t))
                }
            }
            if let feed = settings.mqttRoomTopic {
                feedRoom(beacon, &tracks.byBeacon.values[i], topic: feed, at: t, into: &out)
            }
            // A beacon that is not_home with no reading left is forgotten, so memory follows the
            // beacons present; if it comes back it starts afresh (its previous location was null anyway).
            if tracks.byBeacon.values[i].isGone {
                tracks.byBeacon.remove(at: i)
                if beacon.scheme == .device { topics.forgetDevice(beacon) }
                gone = true
            }
        }
        if gone { tracks.dropRemoved() }
    }

    /// The plan's radio map with the offsets and exponent in force (rebuilt only when they moved).
    private mutating func mapSurvey() {
        guard let surveyed = site.surveyed, !surveyed.isEmpty, let exponent = site.placement(settings)?.exponent
        else { return }
        let offsets = surveyed.map { offset(of: $0) ?? 0 }
        site.mapSurvey(offsets: offsets, exponent: exponent)
    }

    /// Beacons currently tracked (located, or with readings).
    package var trackedCount: Int { tracks.count }

    /// Beacons with a current location (home or away).
    package var locatedCount: Int { tracks.byBeacon.values.count { $0.location != nil } }

    /// Beacons whose location is `unknown`: home, but no room can be named with confidence.
    package var unknownCount: Int { tracks.byBeacon.values.count { $0.location?.isUnknown == true } }

    /// The gateways the locator knows of: the site plan's, in its order, then by id every other it
    /// heard on the wall clock (it keeps their clocks) or whose status said offline or degraded.
    package var knownGateways: [String] {
        let plan = settings.positions.plan?.gateways.map(\.id) ?? []
        return plan + Set(clocks.all.map(\.gateway)).union(offline).subtracting(plan).sorted()
    }

    /// Whether gateway `id` can hear: not `offline` or `degraded` since its last reading.
    package func hears(_ id: String) -> Bool { !offline.contains(id) }

    /// Home Assistant `mqtt_room`: the owner's room and distance, on every change and every new owner
    /// reading. Only the owner's room is fed, so mqtt_room follows the locator within its `timeout`.
    private func feedRoom(
        _ beacon: BeaconIdentity, _ track: inout LocatorTrack, topic: String, at t: Timestamp,
        into out: inout [OutboundMessage]
    ) {
        guard let l = track.location, let owner = l.gateway, let room = l.room ?? l.gateway,
            TopicName.problem(level: room) == nil,
            let newest = track.readings(of: owner)?.last(where: { $0.timestamp <= t }),
            track.lastFed.map({ newest.timestamp > $0 }) ?? true
        else { return }
        track.lastFed = newest.timestamp
        out.append(
            LocatorComposer(topics: topics, qos: qos).mqttRoom(
                beacon, name: track.name, distance: newest.distance, topic: TopicTree.roomFeed(topic, room: room)))
    }

    /// The locator's offset for a gateway: `locator.rssi_offset` when configured for it, else the
    /// fitted one (`site`), else none.
    package func offset(of gateway: String) -> Double? {
        settings.rssiOffsets[gateway] ?? site.calibrator.offset(of: gateway)
    }

    /// What the belief engine weighs of a reading, with the locator's calibration (`offset(of:)`):
    /// the mean of the gateway's filtered RSSI and the newest reading published with it. The
    /// filter (a 5 s median by default) lags a walk by half its window; the newest reading does not
    /// lag but is noisier; their mean halves the lag for part of the noise, and a gateway publishes
    /// on a move of its filtered RSSI, when the newest reading says most. nil when the reading
    /// carries no filtered RSSI (then the sample derives it from the distance).
    func signal(_ r: LocatorReading) -> Double? {
        guard let filtered = r.filteredRSSI else { return nil }
        let newest = r.rssi.map { $0.isFinite ? ($0 + filtered) / 2 : filtered } ?? filtered
        return newest + (offset(of: r.gateway) ?? 0)
    }

    /// The gateway's distance, recomputed from its filtered RSSI when the locator calibrates it.
    func effectiveDistance(_ r: LocatorReading) -> Double? {
        if let offset = offset(of: r.gateway), offset != 0, let rssi = r.filteredRSSI,
            let power = r.measuredPower
        {
            let d = DistanceEstimator.accuracy(rssi: rssi + offset, measuredPower: Double(power), settings: distance)
            return d >= 0 ? d : nil
        }
        return r.accuracy >= 0 && r.accuracy.isFinite ? r.accuracy : nil
    }
}
