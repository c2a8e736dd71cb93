import BeaconWire
import Vocabulary

extension BeaconMonitor {
    // MARK: Restore at start

    /// Takes back the states our retained `attributes` recorded before a restart. Call it once,
    /// before the first `observe`.
    ///
    /// States whose `last_seen` (else `since`) is older than monitoring.restore_max_age before
    /// `start` are ignored here, so the caller may pass everything it read. A restored `inside`
    /// stays inside without a new enter; it exits at max(last_seen, start) + exit timeout unless seen
    /// again. A restored `outside` region skips initial determination, and a sighting enters it as
    /// usual. Restored `outside` beacons need nothing: an unseen beacon enters on its first sighting
    /// anyway. Per-beacon states are restored only with monitoring.per_beacon on, and only for
    /// identities that match a configured region (or any identity when there are none).
    package mutating func restore(_ states: [RestoredState]) {
        let maxAge = settings.monitoring.restoreMaxAge
        var regionByName: [String: Int] = [:]
        for (i, r) in settings.regions.enumerated() { regionByName[r.name] = i }
        for s in states {
            guard s.state != .unknown, let reference = s.lastSeen ?? s.since, start - reference <= maxAge else {
                continue
            }
            let lastSeen = max(s.lastSeen ?? reference, start)
            switch s.subject {
            case .region(let name):
                guard let r = regionByName[name], regions[r].state == .unknown else { continue }
                regions[r].since = s.since
                if s.state == .inside {
                    regions[r].state = .inside
                    regions[r].lastSeen = lastSeen
                    regions[r].attributesDue = start + settings.monitoring.attributesRefresh
                    insideCount += 1
                    // The armed determination deadline re-pushes itself to lastSeen + exit timeout.
                } else {
                    regions[r].state = .outside
                    regions[r].lastSeen = s.lastSeen
                }
            case .beacon(let id):
                guard s.state == .inside, settings.monitorsIndividually(id), table.find(id) == nil,
                    table.count < max(1, settings.monitoring.maxTracked)
                else { continue }
                let matchList = regionIndex.matchList(for: id)
                let device = settings.devices.first { $0.identity == id }
                if id.scheme == .device {
                    guard device != nil else { continue }
                } else {
                    guard regionIndex.isEmpty || matchList != RegionIndex.none else { continue }
                }
                let kind: BeaconSighting.Kind = device?.kind ?? (id.scheme == .eddystone ? .eddystoneUID : .iBeacon)
                var slot = newSlot(id, kind: kind, matchList: matchList, at: lastSeen)
                slot.state = .inside
                slot.since = s.since
                slot.attributesDue = start + settings.monitoring.attributesRefresh
                slot.exitArmed = true
                let i = table.insert(slot)
                insideCount += 1
                heap.push(
                    .init(
                        due: (lastSeen + slot.exitTimeout).microseconds, subject: .beacon, index: i,
                        generation: table[i].generation))
            }
        }
        if insideCount > 0 { wakeRanging(at: now) }
    }

    // MARK: Reload (SIGHUP)

    /// Applies a reloaded configuration at `time`, after advancing to it.
    ///
    /// A region with the same name and the same identifiers keeps its state; a new or changed one
    /// starts `unknown` (determined after its exit timeout); a removed one is forgotten
    /// (`didStopMonitoringRegion`). Tracked beacons that no longer match any region are dropped
    /// (`didStopMonitoringBeacon` when per-beacon monitoring had a state for them); beacons beyond a
    /// smaller monitoring.max_tracked are evicted. Turning monitoring.per_beacon off forgets
    /// per-beacon states without events.
    package mutating func reconfigure(
        _ config: MonitorSettings, at time: Timestamp, into out: inout [MonitoringEvent]
    ) {
        advance(to: time, into: &out)
        let t = now
        let oldConfig = settings
        let oldRegions = regions
        var oldByName: [String: Int] = [:]
        for (i, r) in oldConfig.regions.enumerated() { oldByName[r.name] = i }

        settings = config
        regionIndex = RegionIndex(config.regions)
        applyDerivedSettings()

        var newNames = Set<String>()
        regions = []
        insideCount = 0
        for r in config.regions {
            newNames.insert(r.name)
            let timeout = r.exitTimeout ?? config.monitoring.exitTimeout
            if let o = oldByName[r.name], Self.sameIdentifiers(oldConfig.regions[o], r) {
                var kept = oldRegions[o]
                kept.exitTimeout = timeout
                if kept.state == .inside { insideCount += 1 }
                regions.append(kept)
            } else {
                regions.append(MonitoredRegion(exitTimeout: timeout))
            }
        }
        for r in oldConfig.regions where !newNames.contains(r.name) {
            emit(.didStopMonitoringRegion(r.name), into: &out)
        }
        rangeLists = Array(repeating: [], count: regions.count)

        // Re-derive every tracked beacon, then rebuild the deadline heap from scratch.
        for i in table.recencyOrder {
            let id = table[i].identity
            let matchList = regionIndex.matchList(for: id)
            // A device stays while it is configured; a beacon while it matches a region (or any).
            let dropped =
                id.scheme == .device ? overrides[id] == nil : !regionIndex.isEmpty && matchList == RegionIndex.none
            if dropped {
                let old = table.remove(i)
                if oldConfig.monitorsIndividually(id) && old.state != .unknown {
                    emit(.didStopMonitoringBeacon(id), into: &out)
                }
                continue
            }
            let override = overrides[id] ?? -1
            table[i].matchList = matchList
            table[i].override = override
            table[i].exitTimeout = exitTimeout(matchList: matchList, override: override)
            table[i].kalman = KalmanFilter(
                processNoise: config.ranging.filter.processNoise,
                measurementNoise: config.ranging.filter.measurementNoise)
            if !config.monitorsIndividually(id) {
                table[i].state = .unknown
                table[i].exitArmed = false
            }
            if table[i].state == .inside { insideCount += 1 }
        }
        for r in regions.indices {
            switch regions[r].state {
            case .unknown:
                // A kept region keeps its determination deadline; a new one starts counting now.
                if !regions[r].armed { regions[r].armedDue = (t + regions[r].exitTimeout).microseconds }
            case .inside: regions[r].armedDue = ((regions[r].lastSeen ?? t) + regions[r].exitTimeout).microseconds
            case .outside: break
            }
            regions[r].armed = regions[r].state != .outside
        }
        rebuildDeadlines()
        while table.count > max(1, config.monitoring.maxTracked) { evictLeastRecent(at: t, into: &out) }
        rangingIdle = true
        wakeRanging(at: t)
    }

    /// Refills the heap with one entry per armed subject, dropping stale ones (evicted slots,
    /// superseded deadlines). Used on reload, and when evictions have left the heap much larger than
    /// what is tracked, so its size stays bounded by the table and region count.
    mutating func rebuildDeadlines() {
        heap.removeAll()
        for r in regions.indices where regions[r].armed {
            regions[r].generation &+= 1
            heap.push(
                .init(due: regions[r].armedDue, subject: .region, index: Int32(r), generation: regions[r].generation))
        }
        for i in table.recencyOrder where table[i].exitArmed {
            heap.push(
                .init(
                    due: (table[i].lastSeen + table[i].exitTimeout).microseconds, subject: .beacon, index: i,
                    generation: table[i].generation))
        }
    }

    static func sameIdentifiers(_ a: BeaconRegion, _ b: BeaconRegion) -> Bool {
        a.scheme == b.scheme && a.uuid == b.uuid && a.major == b.major && a.minor == b.minor && a.instance == b.instance
    }

    // MARK: Snapshots

    /// Every state that retained messages describe (each region's and, with per-beacon monitoring,
    /// each tracked beacon's that is not `unknown`): republish after a reconnect with a clean
    /// session, or after the broker lost its retained store.
    package mutating func republishRetained(into out: inout [MonitoringEvent]) {
        for r in regions.indices where regions[r].state != .unknown { publishRegionState(r, into: &out) }
        for i in table.recencyOrder where table[i].state != .unknown && settings.monitorsIndividually(table[i].identity)
        {
            publishBeaconState(table[i], into: &out)
        }
    }

    /// The tracked beacons, most recently seen first, for the `scan` table.
    package var trackedBeacons: [TrackedBeacon] {
        table.recencyOrder.map { i in
            let s = table[i]
            return TrackedBeacon(
                identity: s.identity, kind: s.kind, name: name(of: s), address: s.address, rssi: settings.rssi(s.rssi),
                filteredRSSI: s.filteredRSSI, measuredPower: measuredPower(of: s), accuracy: s.accuracy,
                proximity: s.proximity, state: s.state, seenCount: s.seenCount, firstSeen: s.firstSeen,
                lastSeen: s.lastSeen)
        }
    }

    /// Each configured region's current state, in configuration order.
    package var regionStates: [(name: String, state: RegionState)] {
        regions.indices.map { (settings.regions[$0].name, regions[$0].state) }
    }
}
