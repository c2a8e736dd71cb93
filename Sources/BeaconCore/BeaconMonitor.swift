import BeaconWire
import Vocabulary

/// The pure monitoring and ranging engine: sightings and time in, `MonitoringEvent`s out.
///
/// Region monitoring follows CoreLocation (one enter when the first matching beacon is seen, one exit
/// when the last has been silent for the exit timeout, `didDetermineState`-like `outside` at start);
/// per-beacon monitoring follows the AltBeacon library (each identity enters and exits on its own,
/// `DEFAULT_EXIT_PERIOD` 10 s); ranging follows `didRangeBeacons` (beacons seen within `stale_after`,
/// nearest first, every `ranging.interval`).
///
/// Nothing here reads a clock: `observe` and `advance` carry the time, and every deadline fires at
/// exactly the instant it is due (an exit at `lastSeen + exitTimeout`), whenever `advance` reaches it.
/// Per sighting the work is O(1) (plus O(log n) when an exit deadline is first armed), and nothing
/// is allocated unless an event results. Topics and payloads are the message contract's.
package struct BeaconMonitor: Sendable {
    package internal(set) var settings: MonitorSettings
    var countersStorage = MonitorCounters()
    var regionIndex: RegionIndex
    var regions: [MonitoredRegion] = []
    var overrides: [BeaconIdentity: Int32] = [:]
    var table = BeaconTable()
    var heap = DeadlineHeap()
    /// When monitoring started: the reference for initial-state determination and restore.
    package let start: Timestamp
    /// The latest time `observe`/`advance` reached; time never goes backwards.
    package internal(set) var now: Timestamp
    var nextTick: Int64 = 0
    /// No beacon in range and nothing inside: ticks would publish nothing, so they are skipped.
    var rangingIdle = true
    /// Regions plus beacons currently `inside` (their attributes need refreshing at ticks).
    var insideCount = 0
    /// Longest time after its last sighting that a slot can still matter to a tick.
    var horizon: TimeSpan = .zero
    var rangeLists: [[Int32]] = []
    /// A tick's scratch for ordering one region's list.
    var rangingOrder = RangingOrder()

    /// Starts monitoring at `start`: every region is `unknown` until a matching sighting, or until its
    /// exit timeout passes without one (then `outside`, without an event).
    package init(settings: MonitorSettings, start: Timestamp) {
        self.settings = settings
        self.start = start
        self.now = start
        regionIndex = RegionIndex(settings.regions)
        applyDerivedSettings()
        for r in settings.regions {
            regions.append(MonitoredRegion(exitTimeout: r.exitTimeout ?? settings.monitoring.exitTimeout))
        }
        rangeLists = Array(repeating: [], count: regions.count)
        for r in regions.indices { arm(region: r, due: start + regions[r].exitTimeout) }
    }

    /// Counters, with `tracked` filled in.
    package var counters: MonitorCounters {
        var c = countersStorage
        c.tracked = table.count
        return c
    }

    // MARK: Derived configuration

    mutating func applyDerivedSettings() {
        overrides = [:]
        for (i, o) in settings.beacons.enumerated() { overrides[o.identity] = Int32(i) }
        var longest = settings.monitoring.exitTimeout
        for r in settings.regions { longest = max(longest, r.exitTimeout ?? .zero) }
        for o in settings.beacons { longest = max(longest, o.exitTimeout ?? .zero) }
        horizon = max(longest, settings.ranging.staleAfter)
    }

    /// Per-beacon exit timeout: the beacon override's, else the longest of its matching regions',
    /// else monitoring.exit_timeout.
    func exitTimeout(matchList: Int32, override: Int32) -> TimeSpan {
        if override >= 0, let t = settings.beacons[Int(override)].exitTimeout { return t }
        var longest: TimeSpan?
        for p in regionIndex.positions(matchList) {
            longest = max(longest ?? .zero, regions[Int(regionIndex.region(at: p))].exitTimeout)
        }
        return longest ?? settings.monitoring.exitTimeout
    }

    func name(of slot: BeaconSlot) -> String? {
        slot.override >= 0 ? settings.beacons[Int(slot.override)].name : nil
    }

    /// Per-beacon events are gated by the flags of the regions the beacon matches (any allowing
    /// suffices); with no regions configured, and for devices, they are always sent.
    func perBeaconNotify(_ slot: BeaconSlot, entry: Bool) -> Bool {
        if regionIndex.isEmpty || slot.identity.scheme == .device { return true }
        for p in regionIndex.positions(slot.matchList) {
            let region = settings.regions[Int(regionIndex.region(at: p))]
            if entry ? region.notifyEntry : region.notifyExit { return true }
        }
        return false
    }

    // MARK: Driving

    /// Records one sighting (after advancing to its timestamp): enters what it makes inside, feeds
    /// the RSSI filter, and re-arms exit timers. Sightings older than `now` count as `now`.
    /// False when the beacon matches no region and is ignored.
    @discardableResult
    package mutating func observe(_ s: BeaconSighting, into out: inout [MonitoringEvent]) -> Bool {
        track(s, into: &out) != nil
    }

    /// `observe`, returning the beacon's slot in the table (nil when it is ignored).
    @discardableResult
    package mutating func track(_ s: BeaconSighting, into out: inout [MonitoringEvent]) -> MonitorSlot? {
        advance(to: s.timestamp, into: &out)
        let t = now
        countersStorage.sightings += 1
        let i: Int32
        if let found = table.find(s.identity) {
            i = found
            if t - table[i].lastSeen >= settings.ranging.staleAfter {
                // Back after dropping out of ranging: start filtering and publishing afresh.
                table[i].kalman.reset()
                table[i].publishedAt = nil
            }
        } else {
            let matchList = regionIndex.matchList(for: s.identity)
            // Devices match no region; they are tracked because they are configured.
            if !regionIndex.isEmpty && matchList == RegionIndex.none && s.identity.scheme != .device {
                countersStorage.ignored += 1
                return nil
            }
            while table.count >= max(1, settings.monitoring.maxTracked) { evictLeastRecent(at: t, into: &out) }
            i = table.insert(newSlot(s.identity, kind: s.kind, matchList: matchList, at: t))
        }
        table.record(i, s, at: t)
        if s.rssi != 127 && settings.ranging.filter.kind == .kalman { table[i].kalman.update(Double(s.rssi)) }
        if settings.monitorsIndividually(s.identity) {
            if table[i].state != .inside { enterBeacon(i, at: t, into: &out) }
            if !table[i].exitArmed {
                table[i].exitArmed = true
                heap.push(
                    .init(
                        due: (t + table[i].exitTimeout).microseconds, subject: .beacon, index: i,
                        generation: table[i].generation))
            }
        }
        for p in regionIndex.positions(table[i].matchList) {
            let ri = Int(regionIndex.region(at: p))
            regions[ri].lastSeen = t
            regions[ri].lastSighting = s
            if regions[ri].state != .inside { enterRegion(ri, at: t, into: &out) }
            if !regions[ri].armed { arm(region: ri, due: t + regions[ri].exitTimeout) }
        }
        if rangingIdle { wakeRanging(at: t) }  // tested here: the call alone cost as much as the test
        return MonitorSlot(index: i, generation: table[i].generation)
    }

    /// Fires everything due at or before `time`, in time order: exit deadlines, initial-state
    /// determination, ranging ticks (with proximity heartbeats and attribute refreshes). Each
    /// message is stamped with the instant it was due.
    ///
    /// Most calls (two a report) find nothing due: that test is all they run, outside the loop's
    /// frame (with the loop inlined, every call saved and restored its registers: about 45
    /// instructions a call).
    package mutating func advance(to time: Timestamp, into out: inout [MonitoringEvent]) {
        let limit = max(time, now).microseconds
        let heapDue = heap.top?.due ?? .max
        if heapDue > limit && (rangingIdle || nextTick > limit) {
            if time > now { now = time }
            return
        }
        fireDue(upTo: limit, into: &out)
        if time > now { now = time }
    }

    /// `advance`'s loop: everything due at or before `limit` (µs), in time order.
    @inline(never)
    mutating func fireDue(upTo limit: Int64, into out: inout [MonitoringEvent]) {
        let interval = tickInterval
        while true {
            let heapDue = heap.top?.due ?? .max
            let tickDue = rangingIdle ? Int64.max : nextTick
            if min(heapDue, tickDue) > limit { break }
            if heapDue <= tickDue {
                fire(heap.pop()!, into: &out)
            } else {
                tick(at: Timestamp(microseconds: tickDue), into: &out)
                nextTick = tickDue + interval
            }
        }
    }

    // MARK: Internals

    /// ranging.interval in µs; below 10 ms it is taken as 10 ms, so a bad value cannot spin `advance`.
    var tickInterval: Int64 { max(10_000, settings.ranging.interval.microseconds) }

    func newSlot(_ id: BeaconIdentity, kind: BeaconSighting.Kind, matchList: Int32, at t: Timestamp) -> BeaconSlot {
        let override = overrides[id] ?? -1
        return BeaconSlot(
            identity: id, kind: kind, address: BluetoothAddress(rawValue: 0), rssi: 127, frameMeasuredPower: nil,
            firstSeen: t, lastSeen: t, matchList: matchList, override: override,
            exitTimeout: exitTimeout(matchList: matchList, override: override),
            attributesDue: t,
            kalman: KalmanFilter(
                processNoise: settings.ranging.filter.processNoise,
                measurementNoise: settings.ranging.filter.measurementNoise),
            measuredPower: settings.ranging.distance.defaultMeasuredPower)
    }

    /// Ticks are aligned to multiples of the ranging interval; resuming from idle picks the next one.
    mutating func wakeRanging(at t: Timestamp) {
        guard rangingIdle else { return }
        rangingIdle = false
        let interval = tickInterval
        let us = t.microseconds
        let floor = us >= 0 ? us / interval * interval : (us - interval + 1) / interval * interval
        nextTick = floor + interval
    }

    mutating func arm(region r: Int, due: Timestamp) {
        regions[r].armed = true
        regions[r].armedDue = due.microseconds
        heap.push(.init(due: due.microseconds, subject: .region, index: Int32(r), generation: regions[r].generation))
    }

    /// Appends `e` and counts enters and exits (`MonitorCounters`). Inlined so each call site's
    /// switch folds away and the event is built once, in place.
    @inline(__always)
    mutating func emit(_ e: MonitoringEvent, into out: inout [MonitoringEvent]) {
        switch e {
        case .didEnterRegion, .beaconDidEnter: countersStorage.enterEvents += 1
        case .didExitRegion, .beaconDidExit: countersStorage.exitEvents += 1
        default: break
        }
        out.append(e)
    }

    /// A restored beacon that was never seen since start has no address or RSSI to report.
    func eventBeacon(_ slot: BeaconSlot) -> TransitionBeacon {
        .init(
            identity: slot.identity, name: name(of: slot), address: slot.seenCount > 0 ? slot.address : nil,
            rssi: slot.rssi, lastSeen: slot.lastSeen)
    }

    /// The beacon a region event names: the last matching sighting (none for a restored region
    /// that exits before any sighting; then only the region's `last_seen` is known).
    func regionEventBeacon(_ r: Int) -> TransitionBeacon {
        guard let s = regions[r].lastSighting else {
            return .init(identity: nil, name: nil, address: nil, rssi: 127, lastSeen: regions[r].lastSeen)
        }
        let name = overrides[s.identity].flatMap { settings.beacons[Int($0)].name }
        return .init(identity: s.identity, name: name, address: s.address, rssi: s.rssi, lastSeen: regions[r].lastSeen)
    }

    mutating func enterBeacon(_ i: Int32, at t: Timestamp, into out: inout [MonitoringEvent]) {
        table[i].state = .inside
        table[i].since = t
        table[i].attributesDue = t + settings.monitoring.attributesRefresh
        insideCount += 1
        let slot = table[i]
        if perBeaconNotify(slot, entry: true) {
            emit(.beaconDidEnter(eventBeacon(slot), at: t), into: &out)
        }
        publishBeaconState(slot, into: &out)
    }

    mutating func exitBeacon(
        _ slot: BeaconSlot, at t: Timestamp, reason: MonitoringEvent.ExitReason?, into out: inout [MonitoringEvent]
    ) {
        insideCount -= 1
        if perBeaconNotify(slot, entry: false) {
            emit(.beaconDidExit(eventBeacon(slot), at: t, reason: reason), into: &out)
        }
        var outside = slot
        outside.state = .outside
        outside.since = t
        publishBeaconState(outside, into: &out)
    }

    mutating func publishBeaconState(_ slot: BeaconSlot, into out: inout [MonitoringEvent]) {
        emit(
            .beaconDidDetermineState(
                slot.identity, name: name(of: slot),
                RegionStatus(state: slot.state, since: slot.since, lastSeen: slot.lastSeen)),
            into: &out)
    }

    mutating func enterRegion(_ r: Int, at t: Timestamp, into out: inout [MonitoringEvent]) {
        regions[r].state = .inside
        regions[r].since = t
        regions[r].attributesDue = t + settings.monitoring.attributesRefresh
        regions[r].beaconsInRange = max(1, regions[r].beaconsInRange)
        insideCount += 1
        let region = settings.regions[r]
        if region.notifyEntry {
            emit(.didEnterRegion(region.name, by: regionEventBeacon(r), at: t), into: &out)
        }
        publishRegionState(r, into: &out)
    }

    mutating func publishRegionState(_ r: Int, into out: inout [MonitoringEvent]) {
        let name = settings.regions[r].name
        let m = regions[r]
        emit(
            .didDetermineState(
                name, RegionStatus(state: m.state, since: m.since, lastSeen: m.lastSeen),
                beaconsInRange: m.beaconsInRange),
            into: &out)
    }

    /// Drops the least recently seen beacon; an `inside` one exits with `"reason":"evicted"`.
    mutating func evictLeastRecent(at t: Timestamp, into out: inout [MonitoringEvent]) {
        guard table.tail >= 0 else { return }
        let slot = table.remove(table.tail)
        countersStorage.evicted += 1
        if slot.state == .inside { exitBeacon(slot, at: t, reason: .evicted, into: &out) }
        // Each eviction may strand one heap entry until its due time; under a flood of new
        // identities compact instead of letting the heap grow with the flood rate.
        if heap.count > 2 * (table.count + regions.count) + 64 { rebuildDeadlines() }
    }

    /// A deadline popped: exit (or determine `outside`) unless a later sighting moved it, in which
    /// case the later deadline is pushed instead.
    mutating func fire(_ e: DeadlineHeap.Entry, into out: inout [MonitoringEvent]) {
        let due = Timestamp(microseconds: e.due)
        switch e.subject {
        case .beacon:
            let i = e.index
            guard Int(i) < table.slots.count, table[i].inUse, table[i].generation == e.generation,
                table[i].exitArmed
            else { return }
            let deadline = table[i].lastSeen + table[i].exitTimeout
            if deadline.microseconds > e.due {
                heap.push(.init(due: deadline.microseconds, subject: .beacon, index: i, generation: e.generation))
                return
            }
            table[i].exitArmed = false
            guard table[i].state == .inside else { return }
            table[i].state = .outside
            table[i].since = due
            exitBeacon(table[i], at: due, reason: nil, into: &out)
        case .region:
            let r = Int(e.index)
            guard r < regions.count, regions[r].generation == e.generation, regions[r].armed,
                regions[r].armedDue == e.due
            else { return }
            if let seen = regions[r].lastSeen, (seen + regions[r].exitTimeout).microseconds > e.due {
                arm(region: r, due: seen + regions[r].exitTimeout)
                return
            }
            regions[r].armed = false
            switch regions[r].state {
            case .inside:
                regions[r].state = .outside
                regions[r].since = due
                regions[r].beaconsInRange = 0
                insideCount -= 1
                let region = settings.regions[r]
                if region.notifyExit {
                    emit(.didExitRegion(region.name, by: regionEventBeacon(r), at: due), into: &out)
                }
                publishRegionState(r, into: &out)
            case .unknown:
                // Initial-state determination, like didDetermineState: no event.
                regions[r].state = .outside
                regions[r].since = due
                publishRegionState(r, into: &out)
            case .outside:
                break
            }
        }
    }
}
